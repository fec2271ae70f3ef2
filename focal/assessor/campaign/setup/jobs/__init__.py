"""Import jobs kept honest while they run: heartbeats, the guard on their commit, interruption."""
