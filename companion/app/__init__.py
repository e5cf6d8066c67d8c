"""The application layer: the hub and the services around the table.

The hub runs every input to completion; the services here give it its actions and react to its
outcomes: the score keeper, the table's actions on the devices, the settings and the voice, the
table's memory across restarts, the motion watcher and the systemd notifier. They know the core
and talk to adapters through the objects the daemon hands them; no adapter imports this package.
"""
