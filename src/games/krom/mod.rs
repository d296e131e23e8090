//! krom: being written.
