# UNO Flip (000 §XI): light side +1, dark side +5, Skip Everyone, Wild Draw Colour.
rule deck flip
players Alice Bruno Chloé David
play draw1 yellow                   # Bruno: Chloé presses once and loses her turn
press
play flip yellow                    # David turns the table: dark side
play draw5 pink                     # Alice: Bruno presses five times
press
press
press
press
press
play skip_everyone pink             # Chloé plays again
play wild_draw_colour teal          # Chloé: David presses until a teal card comes out
press
press
colour-came
play flip teal                      # Alice: light side again
play 9 red
