"""The GPU lease: one rehearsed command (``training/lease.sh``) that trains on a lent GPU machine and
brings back bf16 weights small enough for the way back (``parts.py``), and the import that turns
them into a model folder ndb loads (``unpack.py``). ``run.py`` is the trainer."""
