//! Hooks that own browser resources.

pub mod use_clock;
pub mod use_drag;
