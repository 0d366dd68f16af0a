"""The desktop window (PySide6). Importing the package guards against a PySide6 refcount bug first."""

from app.gui.qt_compat import guard_refcount_bugs

guard_refcount_bugs()
