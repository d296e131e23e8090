//! tictactoe rules: being written.
