package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudevents.CloudEvent;
import io.zerolayer.contract.avro.InstanceState;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Invariants of the state machine over arbitrary sequences of samples and silences. */
class InstanceMachinePropertiesTest {

  private final InstanceMachine machine = new InstanceMachine(new RuleTimings(3_000, 3_000, 500, 2_000));
  private final StatusEvents events = new StatusEvents();

  /** One step: a sample with these signals after {@code gapMs}, or a wall-clock tick only. */
  record Step(Signals signals, long gapMs, boolean tickOnly) {
  }

  @Property
  void weightsStayBetweenZeroAndOne(@ForAll("steps") @Size(max = 200) final List<Step> steps) {
    for (final Machine state : run(steps, new ArrayList<>())) {
      assertThat(state.weight()).isBetween(0.0, 1.0);
    }
  }

  @Property
  void everyStateTransitionYieldsExactlyOneCloudEvent(@ForAll("steps") @Size(max = 200) final List<Step> steps) {
    final List<CloudEvent> published = new ArrayList<>();
    final List<Machine> states = run(steps, published);
    int changes = 1;
    for (int i = 1; i < states.size(); i++) {
      if (states.get(i).state() != states.get(i - 1).state()) {
        changes++;
      }
    }
    assertThat(published).hasSize(states.isEmpty() ? 0 : changes);
    assertThat(published).extracting(CloudEvent::getId).doesNotHaveDuplicates();
  }

  @Property
  void anEjectedOrSuspectInstanceNeverHasWeight(@ForAll("steps") @Size(max = 200) final List<Step> steps) {
    for (final Machine state : run(steps, new ArrayList<>())) {
      if (state.state() == InstanceState.EJECTED || state.state() == InstanceState.SUSPECT) {
        assertThat(state.weight()).isZero();
      }
    }
  }

  private List<Machine> run(final List<Step> steps, final List<CloudEvent> published) {
    final List<Machine> states = new ArrayList<>();
    Machine current = null;
    Signals last = null;
    long now = 0;
    long lastSeen = 0;
    for (final Step step : steps) {
      now += step.gapMs();
      final Assessment assessment;
      if (step.tickOnly() && current != null) {
        assessment = machine.onTick("gpu-1", "zone-a", current, lastSeen, last, now, false);
      } else {
        assessment = machine.onSample("gpu-1", "zone-a", current, step.signals(), now);
        last = step.signals();
        lastSeen = now;
      }
      if (assessment.transition() != null) {
        published.add(events.of(assessment.transition()));
      }
      current = assessment.machine();
      states.add(current);
    }
    return states;
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    final Arbitrary<Double> fraction = Arbitraries.oneOf(Arbitraries.doubles().between(0, 1),
        Arbitraries.of(0.0, 0.699, 0.70, 0.85, 0.92, 0.921, 0.98, 0.981, 1.0));
    final Arbitrary<Double> tgsv = Arbitraries.oneOf(Arbitraries.doubles().between(0, 200),
        Arbitraries.of(15.0, 50.0, 50.1));
    final Arbitrary<Signals> signals = Combinators.combine(fraction, fraction, fraction, tgsv, fraction, fraction)
        .as((latest, peak, gpu, cadence, retransmits, warmup) ->
            new Signals(latest, Math.max(latest, peak), gpu, cadence, retransmits, retransmits, warmup));
    final Arbitrary<Step> step = Combinators.combine(signals, Arbitraries.longs().between(0, 4_000),
        Arbitraries.integers().between(0, 3)).as((s, gap, kind) -> new Step(s, gap, kind == 0));
    return step.list();
  }
}
