package io.zerolayer.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.strimzi.StrimziResources;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests of deploy/k8s: every resource is read into fabric8's Kubernetes model,
 * strictly (no field the model does not know), the apps have probes, resources and budgets, the
 * streams apps keep their state on volumes, and the Strimzi resources are exactly what the
 * catalogue and the ACL plan generate.
 */
class ManifestTest {

  /** Tests run in deploy/stack. */
  private static final Path K8S = Path.of("..", "k8s");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @Test
  void shouldReadEveryBaseResourceIntoTheKubernetesModelWithoutAnUnknownField() throws IOException {
    final List<HasMetadata> resources = base();

    assertThat(resources).hasSizeGreaterThan(10);
    for (final HasMetadata resource : resources) {
      assertThat(resource).as(resource.getKind() + " " + resource.getMetadata().getName())
          .isNotInstanceOf(GenericKubernetesResource.class);
      assertThat(unknownFields(resource, resource.getKind())).as("fields fabric8's model does not know").isEmpty();
    }
  }

  @Test
  void shouldGiveEveryAppProbesResourcesAndTheClusterSettings() throws IOException {
    final List<PodTemplateSpec> templates = base().stream().flatMap(ManifestTest::template).toList();

    assertThat(templates).hasSize(6);
    for (final PodTemplateSpec template : templates) {
      final Container container = template.getSpec().getContainers().get(0);
      assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health");
      assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");
      assertThat(container.getResources().getLimits()).containsKey("memory");
      assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
      assertThat(container.getEnvFrom()).anySatisfy(from ->
          assertThat(from.getConfigMapRef().getName()).isEqualTo("zerolayer-cluster"));
      assertThat(container.getArgs()).hasSize(1);
    }
  }

  @Test
  void shouldRunTheStreamsAppsAndRoutersAsStatefulSetsWithBudgets() throws IOException {
    final List<HasMetadata> resources = base();
    final Map<String, StatefulSet> statefulSets = byName(resources, StatefulSet.class);
    final Set<String> budgets = byName(resources, PodDisruptionBudget.class).keySet();

    assertThat(statefulSets).containsKeys("heatmap-streams", "token-buffer", "router", "gateway");
    for (final String app : List.of("heatmap-streams", "token-buffer")) {
      final StatefulSet set = statefulSets.get(app);
      assertThat(set.getSpec().getVolumeClaimTemplates()).extracting(claim -> claim.getMetadata().getName())
          .containsExactly("state");
      assertThat(set.getSpec().getTemplate().getSpec().getContainers().get(0).getVolumeMounts())
          .anySatisfy(mount -> assertThat(mount.getName()).isEqualTo("state"));
    }
    assertThat(budgets).containsExactlyInAnyOrder("heatmap-streams", "token-buffer", "router", "gateway");
    assertThat(byName(resources, Deployment.class)).containsKeys("telemetry-ingest", "openai-worker-gpu-0");
  }

  @Test
  void shouldHoldExactlyTheStrimziResourcesTheCatalogueAndThePlanGenerate() throws IOException {
    final String committed = Files.readString(K8S.resolve("strimzi/topics-and-users.yaml"));

    assertThat(committed).as("regenerate with: zerolayer topics --strimzi deploy/k8s/strimzi/topics-and-users.yaml")
        .isEqualTo(new StrimziResources(new TopicCatalogue(""), ProvisioningProfile.PRODUCTION, "zerolayer").yaml());
    final List<GenericKubernetesResource> topics = documents(committed).stream()
        .map(text -> SERIALIZATION.unmarshal(text, GenericKubernetesResource.class))
        .filter(resource -> resource.getKind().equals("KafkaTopic")).toList();
    assertThat(topics).hasSize(Topics.ALL.size());
    for (final Topic<?, ?> topic : Topics.ALL) {
      assertThat(topics).as(topic.baseName()).anySatisfy(resource -> {
        final Map<String, Object> spec = resource.get("spec");
        assertThat(spec).containsEntry("topicName", topic.baseName()).containsEntry("partitions", topic.partitions())
            .containsEntry("replicas", 3);
        assertThat((Map<String, Object>) spec.get("config")).containsEntry("min.insync.replicas", "2");
      });
    }
  }

  @Test
  void shouldNameOnlyFilesThatExistInEveryKustomization() throws IOException {
    try (Stream<Path> files = Files.walk(K8S)) {
      final List<Path> kustomizations = files.filter(f -> f.getFileName().toString().equals("kustomization.yaml"))
          .toList();
      assertThat(kustomizations).hasSize(3);
      for (final Path kustomization : kustomizations) {
        final Map<String, Object> content = SERIALIZATION.unmarshal(Files.readString(kustomization), Map.class);
        final List<String> named = new ArrayList<>((List<String>) content.get("resources"));
        ((List<Map<String, String>>) content.getOrDefault("patches", List.of())).forEach(p -> named.add(p.get("path")));
        for (final String name : named) {
          assertThat(kustomization.getParent().resolve(name)).as(kustomization + " names " + name).exists();
        }
      }
    }
  }

  private static List<HasMetadata> base() throws IOException {
    final List<HasMetadata> resources = new ArrayList<>();
    try (Stream<Path> files = Files.list(K8S.resolve("base"))) {
      for (final Path file : files.filter(f -> !f.getFileName().toString().equals("kustomization.yaml")).toList()) {
        for (final String document : documents(Files.readString(file))) {
          resources.add(SERIALIZATION.unmarshal(document, HasMetadata.class));
        }
      }
    }
    return resources;
  }

  private static List<String> documents(final String yaml) {
    return Arrays.stream(yaml.split("(?m)^---\\s*$")).filter(text -> text.lines()
        .anyMatch(line -> !line.isBlank() && !line.startsWith("#"))).toList();
  }

  private static Stream<PodTemplateSpec> template(final HasMetadata resource) {
    if (resource instanceof Deployment deployment) {
      return Stream.of(deployment.getSpec().getTemplate());
    }
    if (resource instanceof StatefulSet set) {
      return Stream.of(set.getSpec().getTemplate());
    }
    return Stream.empty();
  }

  private static <T extends HasMetadata> Map<String, T> byName(final List<HasMetadata> resources,
      final Class<T> type) {
    final Map<String, T> named = new TreeMap<>();
    resources.stream().filter(type::isInstance).map(type::cast).forEach(r -> named.put(r.getMetadata().getName(), r));
    return named;
  }

  /** Paths of fields the model kept as additional properties: those it does not know. */
  private static List<String> unknownFields(final Object model, final String path) {
    final List<String> unknown = new ArrayList<>();
    if (model == null || !model.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
      return unknown;
    }
    for (final Method getter : model.getClass().getMethods()) {
      if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      final Object value;
      try {
        value = getter.invoke(model);
      } catch (final IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        ((Map<?, ?>) value).keySet().forEach(key -> unknown.add(path + "." + key));
      } else if (value instanceof Collection<?> items) {
        items.forEach(item -> unknown.addAll(unknownFields(item, path + "." + getter.getName().substring(3))));
      } else if (value instanceof Map<?, ?> map) {
        map.values().forEach(item -> unknown.addAll(unknownFields(item, path + "." + getter.getName().substring(3))));
      } else {
        unknown.addAll(unknownFields(value, path + "." + getter.getName().substring(3)));
      }
    }
    return unknown;
  }
}
