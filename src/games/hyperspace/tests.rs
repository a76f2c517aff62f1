//! Unit tests for Hyperspace.
