//! batalo: being written.
