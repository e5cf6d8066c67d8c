# UNO Toy Story 3 (002): Lotso asks a colour; who lacks it presses 3.
rule deck toy_story
players Alice Bruno Chloé David
play lotso yellow                   # Bruno asks for yellow
lacked Chloé David                  # Chloé and David have none: 3 presses each
press
press
press
press
press
press
play 0 yellow                       # Chloé
play lotso red                      # David asks for red ...
lacked                              # ... everyone had some: David presses 3
press
press
press
play draw2 red                      # Alice: Bruno presses twice
press
press
