"""The Selector cleanup screen (key 3): browse and mark, review, run, audit and resume."""
