"""The selector cleanup screen (key 3): browse a tag's selectors, mark them, review and delete."""
