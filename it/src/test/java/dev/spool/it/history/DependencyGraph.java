package dev.spool.it.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Not thread-safe: built and read by one check. A directed graph over named nodes whose edges
 * carry the reason they exist (the first one given), with its strongly connected components
 * (Tarjan's algorithm, iterative so that a long chain of transactions does not overflow the
 * stack) and a shortest cycle through a given edge, for the message.
 */
public final class DependencyGraph {

    private final Map<String, Map<String, String>> successors = new LinkedHashMap<>();

    /** Adds {@code from -> to} unless present; a self-edge is ignored (it is no dependency). */
    public void addEdge(String from, String to, String reason) {
        if (from.equals(to)) {
            return;
        }
        successors.computeIfAbsent(from, node -> new LinkedHashMap<>()).putIfAbsent(to, reason);
        successors.computeIfAbsent(to, node -> new LinkedHashMap<>());
    }

    public String reason(String from, String to) {
        return successors.getOrDefault(from, Map.of()).get(to);
    }

    public Set<String> successors(String node) {
        return Collections.unmodifiableSet(successors.getOrDefault(node, Map.of()).keySet());
    }

    /** The components of more than one node, that is the ones holding a cycle. */
    public List<Set<String>> cyclicComponents() {
        Map<String, Integer> order = new HashMap<>();
        Map<String, Integer> lowLink = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> components = new ArrayList<>();
        record Frame(String node, Iterator<String> next) {
        }
        for (String root : successors.keySet()) {
            if (order.containsKey(root)) {
                continue;
            }
            Deque<Frame> work = new ArrayDeque<>();
            visit(root, order, lowLink, stack, onStack);
            work.push(new Frame(root, successors.get(root).keySet().iterator()));
            while (!work.isEmpty()) {
                Frame frame = work.peek();
                if (frame.next().hasNext()) {
                    String next = frame.next().next();
                    if (!order.containsKey(next)) {
                        visit(next, order, lowLink, stack, onStack);
                        work.push(new Frame(next, successors.get(next).keySet().iterator()));
                    } else if (onStack.contains(next)) {
                        lowLink.merge(frame.node(), order.get(next), Math::min);
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    lowLink.merge(work.peek().node(), lowLink.get(frame.node()), Math::min);
                }
                if (lowLink.get(frame.node()).equals(order.get(frame.node()))) {
                    Set<String> component = new HashSet<>();
                    String member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        component.add(member);
                    } while (!member.equals(frame.node()));
                    if (component.size() > 1) {
                        components.add(component);
                    }
                }
            }
        }
        return components;
    }

    private static void visit(String node, Map<String, Integer> order, Map<String, Integer> lowLink, Deque<String> stack,
                              Set<String> onStack) {
        order.put(node, order.size());
        lowLink.put(node, order.get(node));
        stack.push(node);
        onStack.add(node);
    }

    /**
     * A shortest cycle through the edge {@code from -> to} within {@code component}, as the list of
     * its nodes starting and ending with {@code from}; empty when there is none.
     */
    public List<String> cycleThrough(String from, String to, Set<String> component) {
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(to));
        cameFrom.put(to, to);
        while (!queue.isEmpty()) {
            String node = queue.poll();
            if (node.equals(from)) {
                List<String> path = new ArrayList<>();
                for (String step = from; !step.equals(to); step = cameFrom.get(step)) {
                    path.add(step);
                }
                path.add(to);
                Collections.reverse(path);
                path.add(0, from);
                return path;
            }
            for (String next : successors(node)) {
                if (component.contains(next) && cameFrom.putIfAbsent(next, node) == null) {
                    queue.add(next);
                }
            }
        }
        return List.of();
    }

    /** The cycle written node by node with the reason of each edge. */
    public String describe(List<String> cycle) {
        StringBuilder text = new StringBuilder(cycle.get(0));
        for (int i = 1; i < cycle.size(); i++) {
            text.append(" -[").append(reason(cycle.get(i - 1), cycle.get(i))).append("]-> ").append(cycle.get(i));
        }
        return text.toString();
    }
}
