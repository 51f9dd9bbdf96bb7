"""Helpers the tests share: hand-made transcripts (`transcripts`) and a small Claude root with
a rich session in each layout (`sessions`). Not tests themselves."""
