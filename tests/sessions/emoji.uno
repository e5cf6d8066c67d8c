# UNO Emoji (004): the mimic challenge and a customisable card the table wrote for this game.
rule deck emoji
rule custom_card_to others
rule custom_card_presses 1          # "everyone else presses once"
players Alice Bruno Chloé David
play emoji red                      # Bruno: Chloé copies the face until her next turn
play 3 red                          # Chloé
mimic-broken Chloé                  # she laughed: 4 presses
press
press
press
press
play custom blue                    # David: everyone else presses once
press Alice
press Bruno
press Chloé
play 5 blue                         # Alice
