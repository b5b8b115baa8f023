"""Game clocks: time controls, the clock model and how a clock is shown. Pure: time is passed
in as integer nanoseconds from one monotonic source."""
