package dev.spool.broker.api;

import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A request of several items (topics, config resources) some of which are answered where it arrived (refused by an
 * ACL, throttled by a quota) and the rest handed on: the answer is the handed-on part's with the refusals added.
 * Stateless.
 */
final class PartialForwarding {

    private PartialForwarding() {
    }

    /**
     * Hands on {@code rest} (or nothing, when every item was refused) and adds {@code refused} to the answer; the
     * request as it came when nothing was refused.
     */
    static <A extends Message> CompletableFuture<Message> forward(
            RequestContext context, ApiHandler next, Message request, Message rest, boolean nothingLeft, int refused,
            Supplier<A> emptyResponse, Function<A, Message> addRefused) {
        if (refused == 0) {
            return next.handle(context, request);
        }
        CompletableFuture<Message> answer = nothingLeft ? CompletableFuture.completedFuture(emptyResponse.get())
                : next.handle(context, rest);
        @SuppressWarnings("unchecked") // the response of the same API as the empty one
        Function<Message, Message> merge = response -> addRefused.apply((A) response);
        return answer.thenApply(merge);
    }

    static <T> List<T> concat(List<T> answered, List<T> refused) {
        List<T> all = new ArrayList<>(answered);
        all.addAll(refused);
        return all;
    }
}
