package io.zerolayer.tokenbuffer.query;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.TokenRun;
import io.zerolayer.contract.sequence.SequenceView;
import io.zerolayer.tokenbuffer.TokenBufferTopology;
import io.zerolayer.tokenbuffer.internal.TokenStore;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** {@link SequenceQueries} over the running app's sequence store. */
public final class StoreSequenceQueries implements SequenceQueries {

  private final KafkaStreams streams;
  private final HostInfo self;

  /**
   * @param self this instance's {@code application.server}
   */
  public StoreSequenceQueries(final KafkaStreams streams, final HostInfo self) {
    this.streams = requireNonNull(streams, "streams");
    this.self = requireNonNull(self, "self");
  }

  @Override
  public Lookup find(final String sequenceId) {
    final KeyQueryMetadata where;
    try {
      where = streams.queryMetadataForKey(TokenBufferTopology.SEQUENCE_STORE, sequenceId, new StringSerializer());
    } catch (final IllegalStateException e) {
      return new Unavailable("the app is not running yet: " + e.getMessage());
    }
    if (where == null || KeyQueryMetadata.NOT_AVAILABLE.equals(where)) {
      return new Unavailable("the sequence store is being assigned");
    }
    if (!self.equals(where.activeHost())) {
      return new Elsewhere(where.activeHost().host(), where.activeHost().port());
    }
    try {
      final ReadOnlyKeyValueStore<String, SequenceState> store = streams.store(StoreQueryParameters
          .fromNameAndType(TokenBufferTopology.SEQUENCE_STORE, QueryableStoreTypes.<String, SequenceState>keyValueStore())
          .withPartition(where.partition()));
      final SequenceState state = store.get(sequenceId);
      if (state == null) {
        return new Missing();
      }
      final ReadOnlyKeyValueStore<String, TokenRun> tokens = streams.store(StoreQueryParameters
          .fromNameAndType(TokenBufferTopology.TOKEN_STORE, QueryableStoreTypes.<String, TokenRun>keyValueStore())
          .withPartition(where.partition()));
      return new Found(SequenceView.of(state, TokenStore.first(tokens, sequenceId, state.getTokenCount())));
    } catch (final InvalidStateStoreException e) {
      return new Unavailable("the sequence store is migrating or restoring: " + e.getMessage());
    }
  }
}
