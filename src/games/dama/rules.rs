//! dama rules: being written.
