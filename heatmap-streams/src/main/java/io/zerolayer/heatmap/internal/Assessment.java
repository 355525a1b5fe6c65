package io.zerolayer.heatmap.internal;

/**
 * The state machine's answer to a sample or a tick.
 *
 * @param machine what to remember
 * @param preClear send {@code PRE_CLEAR} to the instance now
 * @param transition the state change, or null when the state stayed
 */
public record Assessment(Machine machine, boolean preClear, Transition transition) {
}
