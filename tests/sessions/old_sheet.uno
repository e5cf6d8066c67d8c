# The older French-Canadian sheet (001) with the launcher: its +4 challenge reading.
rule deck old_sheet
rule challenge on
rule challenge_guilty replay
players Alice Bruno Chloé David
start skip green                    # 001: the player left of the dealer misses a turn
play draw4 red                      # Chloé hits David with a +4 ...
challenge guilty                    # ... she had red: she takes it back and presses four
press Chloé
press Chloé
press Chloé
press Chloé
play 6 green                        # then plays the right card; David's turn
suggest Alice                       # 001 Pénalisations: a suggestion costs four
press
press
press
press
