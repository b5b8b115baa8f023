"""Test doubles shared by the tests and by the child scripts in tests/scripts."""
