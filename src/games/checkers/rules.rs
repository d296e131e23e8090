//! checkers rules: being written.
