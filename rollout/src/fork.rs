//! Fork: written by H8b.
