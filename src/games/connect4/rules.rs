//! connect4 rules: being written.
