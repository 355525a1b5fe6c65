package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.router.policy.Heatmap;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecentCutoversTest {

  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration HOLD = Duration.ofSeconds(2);

  private final Heatmap fleet = heatmap(row("gpu-1", 1.0, 0), row("gpu-2", 1.0, 0));
  private final RecentCutovers cutovers = new RecentCutovers(2, WINDOW, HOLD);

  @Test
  void shouldMarkAnInstanceOnceTwoOfItsSequencesWereCutAwayWithinTheWindow() {
    cutovers.cutAway("gpu-1", "a", 0);
    assertThat(cutovers.applyTo(fleet, 0).cutAway()).as("one stream's dip marks nothing").isEmpty();

    cutovers.cutAway("gpu-1", "b", 900);

    assertThat(cutovers.applyTo(fleet, 900).cutAway()).containsExactly("gpu-1");
    assertThat(cutovers.applyTo(fleet, 900).rows()).isEqualTo(fleet.rows());
  }

  @Test
  void shouldCountASequenceReportedTwiceOnce() {
    // An aborted transaction hands the router the same stall report again.
    cutovers.cutAway("gpu-1", "a", 0);
    cutovers.cutAway("gpu-1", "a", 10);

    assertThat(cutovers.applyTo(fleet, 10).cutAway()).isEmpty();
  }

  @Test
  void shouldNotMarkForCutoversFurtherApartThanTheWindow() {
    cutovers.cutAway("gpu-1", "a", 0);
    cutovers.cutAway("gpu-1", "b", 1_001);

    assertThat(cutovers.applyTo(fleet, 1_001).cutAway()).isEmpty();
  }

  @Test
  void shouldHoldTheMarkWhileSequencesKeepBeingCutAwayThenLetItGo() {
    cutovers.cutAway("gpu-1", "a", 0);
    cutovers.cutAway("gpu-1", "b", 0);
    // 1.5 s later one more of its sequences is cut away; the mark ends 2 s after that.
    cutovers.cutAway("gpu-1", "c", 1_500);

    assertThat(cutovers.applyTo(fleet, 3_499).cutAway()).containsExactly("gpu-1");
    assertThat(cutovers.applyTo(fleet, 3_500).cutAway()).isEmpty();
    cutovers.cutAway("gpu-1", "d", 3_600);
    assertThat(cutovers.applyTo(fleet, 3_600).cutAway()).as("a single cut-over after the mark ended").isEmpty();
  }

  @Test
  void shouldMarkNoneWhileMoreThanAThirdOfTheFleetQualifies() {
    final Heatmap six = heatmap(row("gpu-0", 1.0, 0), row("gpu-1", 1.0, 0), row("gpu-2", 1.0, 0),
        row("gpu-3", 1.0, 0), row("gpu-4", 1.0, 0), row("gpu-5", 1.0, 0));
    for (final String instance : new String[] {"gpu-0", "gpu-1"}) {
      cutovers.cutAway(instance, instance + "-a", 0);
      cutovers.cutAway(instance, instance + "-b", 0);
    }
    assertThat(cutovers.applyTo(six, 0).cutAway()).containsExactlyInAnyOrder("gpu-0", "gpu-1");

    // When a third instance's streams slow down too, as when the host running them is busy
    cutovers.cutAway("gpu-2", "gpu-2-a", 100);
    cutovers.cutAway("gpu-2", "gpu-2-b", 100);

    assertThat(cutovers.applyTo(six, 100).cutAway()).isEmpty();
  }

  @Test
  void shouldMarkNothingWhenTurnedOff() {
    final RecentCutovers off = new RecentCutovers(0, WINDOW, HOLD);
    off.cutAway("gpu-1", "a", 0);
    off.cutAway("gpu-1", "b", 0);

    assertThat(off.applyTo(fleet, 0)).isSameAs(fleet);
  }
}
