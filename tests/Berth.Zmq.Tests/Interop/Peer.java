// A ZeroMQ peer built on JeroMQ (a ZeroMQ implementation independent of libzmq), driven by the interop tests.
// usage: java -cp jeromq.jar Peer.java ROLE bind|connect ENDPOINT COUNT
//   rep : answer COUNT multipart requests with the same frames
//   req : send COUNT two-frame requests, check each reply is the same frames
//   pull: receive COUNT multipart messages, printing each as "MSG frame1 frame2 ..."
//   push: send COUNT two-frame messages
// When binding, ENDPOINT is "tcp://127.0.0.1" and the chosen port is printed as "PORT n".
// Every role ends by printing "OK" (or "FAIL reason", exit 1).
import org.zeromq.ZMQ;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Peer {
    public static void main(String[] args) throws Exception {
        String role = args[0];
        boolean bind = args[1].equals("bind");
        String endpoint = args[2];
        int count = Integer.parseInt(args[3]);
        ZMQ.Context context = ZMQ.context(1);
        int type = switch (role) {
            case "rep" -> ZMQ.REP;
            case "req" -> ZMQ.REQ;
            case "pull" -> ZMQ.PULL;
            case "push" -> ZMQ.PUSH;
            default -> throw new IllegalArgumentException(role);
        };
        ZMQ.Socket socket = context.socket(type);
        socket.setLinger(5000);
        socket.setReceiveTimeOut(20000);
        if (bind) {
            int port = socket.bindToRandomPort(endpoint);
            System.out.println("PORT " + port);
        } else {
            socket.connect(endpoint);
        }
        System.out.flush();
        String failure = null;
        for (int i = 0; i < count && failure == null; i++) {
            switch (role) {
                case "rep" -> {
                    List<byte[]> frames = receive(socket);
                    if (frames == null) { failure = "timeout"; break; }
                    send(socket, frames);
                }
                case "pull" -> {
                    List<byte[]> frames = receive(socket);
                    if (frames == null) { failure = "timeout"; break; }
                    StringBuilder line = new StringBuilder("MSG");
                    for (byte[] frame : frames) line.append(' ').append(new String(frame, "UTF-8"));
                    System.out.println(line);
                }
                case "req", "push" -> {
                    List<byte[]> frames = List.of(("java-" + i).getBytes("UTF-8"), ("part-" + i).getBytes("UTF-8"));
                    send(socket, frames);
                    if (role.equals("req")) {
                        List<byte[]> reply = receive(socket);
                        if (reply == null) { failure = "timeout"; break; }
                        if (reply.size() != 2 || !Arrays.equals(reply.get(0), frames.get(0)) || !Arrays.equals(reply.get(1), frames.get(1))) failure = "reply differs";
                    }
                }
            }
        }
        System.out.println(failure == null ? "OK" : "FAIL " + failure);
        System.out.flush();
        socket.close();
        context.term();
        System.exit(failure == null ? 0 : 1);
    }

    private static List<byte[]> receive(ZMQ.Socket socket) {
        List<byte[]> frames = new ArrayList<>();
        do {
            byte[] frame = socket.recv(0);
            if (frame == null) return null;
            frames.add(frame);
        } while (socket.hasReceiveMore());
        return frames;
    }

    private static void send(ZMQ.Socket socket, List<byte[]> frames) {
        for (int i = 0; i < frames.size(); i++) socket.send(frames.get(i), i < frames.size() - 1 ? ZMQ.SNDMORE : 0);
    }
}
