# A classic deck with the launcher (000 §V, §X): +2 and +4 are presses; the +4 challenge (001, 002).
rule deck classic
rule challenge on
players Alice Bruno Chloé
start draw2 blue                    # 000 §V +2 turned up: Bruno presses twice
press
press
play 0 blue                         # Chloé: a classic deck has 0s
play draw4 red                      # Alice hits Bruno with a +4 ...
challenge innocent                  # ... Bruno challenges and loses: 6 presses
press
press
press
press
press
press
play draw2 red                      # Chloé
press Alice
press Alice
play 4 red                          # Bruno
