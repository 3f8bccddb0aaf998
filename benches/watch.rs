// Placeholder while the watch benchmark is written (issue 5).
fn main() {}
