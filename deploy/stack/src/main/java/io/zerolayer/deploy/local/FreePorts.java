package io.zerolayer.deploy.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Picks ports on 127.0.0.1 that are free at the moment of asking. */
public final class FreePorts {

  static final String HOST = "127.0.0.1";

  private FreePorts() {
  }

  /**
   * Distinct free ports. Another process may take one before the child binds it; the child then
   * fails to start and its log says "Address already in use".
   */
  public static List<Integer> pick(final int count) {
    final List<ServerSocket> sockets = new ArrayList<>();
    try {
      // All sockets stay open until every port is chosen, so the ports are distinct.
      for (int i = 0; i < count; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getByName(HOST)));
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot find a free port on " + HOST, e);
    } finally {
      sockets.forEach(FreePorts::closeQuietly);
    }
  }

  private static void closeQuietly(final ServerSocket socket) {
    try {
      socket.close();
    } catch (final IOException e) {
      // The port is released when this process ends; nothing else to do.
    }
  }
}
