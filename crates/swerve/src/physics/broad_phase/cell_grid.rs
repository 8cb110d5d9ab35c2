//! Shared dense grid.
