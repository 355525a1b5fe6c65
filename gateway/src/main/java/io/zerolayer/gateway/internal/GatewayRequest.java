package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ChatMessage;
import java.util.List;

/**
 * What an HTTP request asks for, whichever API it came in: the part the ingress record carries,
 * and how the answer is wanted.
 *
 * @param model the model asked for
 * @param messages the conversation (chat and messages APIs); empty for a text completion
 * @param prompt the text to complete (legacy completions API), or null
 * @param maxTokens the most output tokens
 * @param seed the sampling seed (0 when not given)
 * @param stream whether the answer is streamed as server-sent events
 * @param includeUsage whether a streamed OpenAI answer ends with a usage chunk
 * @param ignoreEos whether to generate exactly {@code maxTokens} ({@code ignore_eos}, vLLM's and SGLang's extension
 *     of the OpenAI API)
 */
public record GatewayRequest(String model, List<ChatMessage> messages, String prompt, int maxTokens, long seed,
    boolean stream, boolean includeUsage, boolean ignoreEos) {

  public GatewayRequest {
    requireNonNull(model, "model");
    messages = List.copyOf(messages);
  }
}
