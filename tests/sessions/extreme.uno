# UNO Extrême (000 §X): the launcher replaces the draw pile, the +2 and the +4.
players Alice Bruno Chloé David
start hit2 red                      # §X Appuyer 2x turned up: Bruno presses twice
press Bruno
press Bruno
play 5 red                          # Chloé starts
play coup_extreme green target Alice   # David: Alice presses once, then David twice for her
press Alice
press David
press David
hand Alice 2
play 3 green                        # Alice forgets UNO ...
contre-uno Alice                    # ... and is caught before Bruno plays: 2 presses
press
press
play discard_all green count 3      # Bruno lays down three green cards
hand Chloé 1
uno Chloé
play hit2 green                     # Chloé's last card: David still presses twice
won Chloé
press David
press David                         # the round is settled; David's cards count
start
