package io.zerolayer.fleet.load;

/** A workload of small, distinct requests, for tests of the loads. */
final class FixedSource implements RequestSource {

  @Override
  public RequestSpec spec(final long index) {
    return new RequestSpec(PromptBand.SHORT, "request " + index, 3, 16, index);
  }

  @Override
  public String describe() {
    return "Fixed test workload";
  }
}
