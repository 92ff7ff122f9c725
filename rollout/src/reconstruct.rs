//! Reconstruction: written by H8b.
