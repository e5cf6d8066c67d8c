"""The application layer: the hub and the services around the table.

The hub runs every input to completion; the services here join it with ``attach(hub)``, give it
its actions and react to its outcomes: the score storage, the score keeper and the page's view of
the scores, the table's actions on the devices, the settings and the voice, the evening, the
table's memory across restarts, the motion watcher and the systemd notifier. They know the core
and talk to adapters through the objects the daemon hands them, typed by the ports of
:mod:`.stores`; no adapter imports this package.
"""
