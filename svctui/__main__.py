"""`python -m svctui` runs the command line."""

from svctui.cli import main

if __name__ == "__main__":
    main()
