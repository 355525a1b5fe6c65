package io.zerolayer.router.internal;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/** Writes records of any catalogue topic through the router's byte-level transactional producer. */
public final class RecordWriter {

  private final TopicCatalogue catalogue;
  private final Serializer<SpecificRecord> values;

  public RecordWriter(final TopicCatalogue catalogue, final ContractSerdes serdes) {
    this.catalogue = catalogue;
    this.values = serdes.anyRecordSerializer();
  }

  /** Sends one record, keyed by a string, to the topic's physical name. */
  public void send(final Producer<byte[], byte[]> out, final Topic<String, ?> topic, final String key,
      final SpecificRecord value) {
    final String name = catalogue.name(topic);
    out.send(new ProducerRecord<>(name, key.getBytes(StandardCharsets.UTF_8), values.serialize(name, value)));
  }
}
