//! Shared draughts machinery: being written.
