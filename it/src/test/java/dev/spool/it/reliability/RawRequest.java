package dev.spool.it.reliability;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchRequestData.FetchPartition;
import org.apache.kafka.common.message.FetchRequestData.FetchTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * One request on a fresh connection, written and parsed with kafka-clients' own message classes: for the
 * error codes a Java client handles silently (a consumer retries a fetch that answers KAFKA_STORAGE_ERROR
 * and never shows it). Thread-safe (stateless).
 */
public final class RawRequest {

    private RawRequest() {
    }

    /** The error of partition 0 of {@code topic} in a consumer's Fetch (v12, by name) from offset 0. */
    public static Errors fetchError(int port, String topic) throws IOException {
        FetchRequestData fetch = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                .setMaxBytes(1 << 20).setTopics(List.of(new FetchTopic().setTopic(topic).setPartitions(List.of(
                        new FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20)))));
        FetchResponse response = (FetchResponse) send(port, ApiKeys.FETCH, (short) 12, fetch);
        return Errors.forCode(response.data().responses().get(0).partitions().get(0).errorCode());
    }

    public static AbstractResponse send(int port, ApiKeys api, short version, ApiMessage request) throws IOException {
        return send("127.0.0.1", port, api, version, request, 0);
    }

    /**
     * The answer of the server at {@code host}:{@code port}; a {@link java.net.SocketTimeoutException} if none came
     * within {@code timeoutMs} (0: wait for ever).
     */
    public static AbstractResponse send(String host, int port, ApiKeys api, short version, ApiMessage request,
                                        int timeoutMs) throws IOException {
        RequestHeader header = new RequestHeader(api, version, "raw-request", 1);
        ByteBuffer frame = RequestUtils.serialize(header.data(), header.headerVersion(), request, version);
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(timeoutMs);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frame.remaining());
            out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            return AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
        }
    }
}
