//! loa: being written.
