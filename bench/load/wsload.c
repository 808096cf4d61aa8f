/*
 * wsload: many WebSocket clients in one epoll loop, for the patchbay benchmarks.
 *
 * Node spends several microseconds per socket read; at 1,000 clients that made the load
 * generator, not the hub, decide the latency. This reads each socket with one syscall,
 * parses frames in place and keeps, per written value `<seq>:<monotonic ms>[:padding]`,
 * the first and last arrival and how many clients saw it.
 *
 * Driven over stdin/stdout, one command and one JSON answer per line:
 *   connect <port> <path> <count> | reset | report <expected> | pause <i> | resume <i>
 *   exclude <i> | state <i> | close
 * Build: gcc -O2 -o wsload wsload.c   (the bench does this itself)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  int upgraded;
  int paused;
  long received;
  unsigned char *buf;
  size_t len, cap;
} client_t;

static client_t *clients;
static int nclients;
static int epfd;
static int excluded = -1;
static long received_total;
static double last_arrival; /* when the last value came, monotonic ms; 0 since the reset */

/* per seq: first/last arrival latency sums come from these */
static double *sent_at, *first_at, *last_at;
static int *seen;
static long seq_cap, seq_max;

/* client 0 keeps the last value of every bench/p<N> */
static char **state;
static int state_cap;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void grow_seq(long seq) {
  if (seq < seq_cap) return;
  long cap = seq_cap ? seq_cap : 65536;
  while (cap <= seq) cap *= 2;
  sent_at = realloc(sent_at, cap * sizeof(double));
  first_at = realloc(first_at, cap * sizeof(double));
  last_at = realloc(last_at, cap * sizeof(double));
  seen = realloc(seen, cap * sizeof(int));
  memset(seen + seq_cap, 0, (cap - seq_cap) * sizeof(int));
  seq_cap = cap;
}

/* The value of one {"p":…,"v":"…"}: the last string before the closing brace (values are
 * "<seq>:<ms>[:padding]" and never hold a quote). Found from the end, without a search. */
static const unsigned char *value_of(const unsigned char *p, size_t n, const unsigned char **end) {
  const unsigned char *q = p + n;
  while (q > p && *(q - 1) != '"') q--; /* after the value's closing quote */
  if (q == p) return NULL;
  *end = --q;
  q = memrchr(p, '"', q - p);
  if (!q || q - p < 4 || memcmp(q - 4, "\"v\":", 4) != 0) return NULL;
  return q + 1;
}

/* `at` is when the read that brought the value returned: every value of one read arrived
 * together, so the clock is read once per read, not once per value. */
static void on_value(int index, const unsigned char *p, size_t n, double at) {
  clients[index].received++;
  received_total++;
  const unsigned char *end;
  const unsigned char *v = value_of(p, n, &end);
  if (!v) return;
  if (index == 0) {
    const unsigned char *a = memmem(p, n, "\"p\":\"bench/p", 12);
    if (a) {
      int k = atoi((const char *)a + 12);
      if (k >= 0 && k < 1000000) {
        if (k >= state_cap) {
          int cap = state_cap ? state_cap : 1024;
          while (cap <= k) cap *= 2;
          state = realloc(state, cap * sizeof(char *));
          memset(state + state_cap, 0, (cap - state_cap) * sizeof(char *));
          state_cap = cap;
        }
        free(state[k]);
        state[k] = strndup((const char *)v, end - v);
      }
    }
  }
  if (index == excluded) return;
  /* A thousand clients see each value: its send time is parsed once, by the first. */
  long seq = 0;
  const unsigned char *d = v;
  while (d < end && *d >= '0' && *d <= '9') seq = seq * 10 + (*d++ - '0');
  if (d == v || d == end || *d != ':' || seq <= 0) return;
  grow_seq(seq);
  if (seen[seq] == 0) {
    sent_at[seq] = strtod((const char *)d + 1, NULL);
    first_at[seq] = at;
  }
  last_at[seq] = at;
  last_arrival = at;
  seen[seq]++;
  if (seq > seq_max) seq_max = seq;
}

/* A message is one {"p":…,"v":…} or, from a ?batch=1 client, an array of them: each
 * value counts as one delivery. Values are "<seq>:<ms>[:padding]", without braces. */
static void on_message(int index, const unsigned char *p, size_t n, double at) {
  if (n == 0 || p[0] != '[') {
    on_value(index, p, n, at);
    return;
  }
  const unsigned char *q = p + 1, *end = p + n;
  while (q < end) {
    const unsigned char *close = memchr(q, '}', end - q);
    if (!close) break;
    on_value(index, q, close + 1 - q, at);
    q = close + 1;
    if (q < end && *q == ',') q++;
  }
}

static void pong(int fd, const unsigned char *payload, size_t n) {
  unsigned char frame[6 + 125];
  if (n > 125) n = 125;
  frame[0] = 0x8a;
  frame[1] = 0x80 | n; /* masked with a zero key: the bytes stay as they are */
  memset(frame + 2, 0, 4);
  memcpy(frame + 6, payload, n);
  if (write(fd, frame, 6 + n) < 0) { /* the next read reports a dead socket */ }
}

static void parse(int index, double at) {
  client_t *c = &clients[index];
  size_t off = 0;
  if (!c->upgraded) {
    unsigned char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
    if (!end) return;
    if (c->len < 12 || memcmp(c->buf + 9, "101", 3) != 0) {
      fprintf(stderr, "wsload: upgrade refused: %.40s\n", c->buf);
      exit(2);
    }
    c->upgraded = 1;
    off = end - c->buf + 4;
  }
  for (;;) {
    size_t left = c->len - off;
    if (left < 2) break;
    unsigned char *f = c->buf + off;
    int opcode = f[0] & 0x0f;
    size_t n = f[1] & 0x7f, header = 2;
    if (n == 126) {
      if (left < 4) break;
      n = (f[2] << 8) | f[3];
      header = 4;
    } else if (n == 127) {
      if (left < 10) break;
      n = 0;
      for (int i = 2; i < 10; i++) n = (n << 8) | f[i];
      header = 10;
    }
    if (left < header + n) break;
    if (opcode == 1) on_message(index, f + header, n, at);
    else if (opcode == 9) pong(c->fd, f + header, n);
    off += header + n;
  }
  memmove(c->buf, c->buf + off, c->len - off);
  c->len -= off;
}

static void on_readable(int index) {
  client_t *c = &clients[index];
  for (;;) {
    if (c->cap - c->len < 65536) {
      c->cap = c->cap ? c->cap * 2 : 131072;
      c->buf = realloc(c->buf, c->cap);
    }
    ssize_t r = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (r > 0) {
      c->len += r;
      parse(index, now_ms());
      if ((size_t)r < 65536) return;
      continue;
    }
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL); /* closed by the server */
    return;
  }
}

static void watch(int index) {
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
  epoll_ctl(epfd, EPOLL_CTL_ADD, clients[index].fd, &ev);
}

static void loop_once(int timeout) {
  struct epoll_event events[512];
  int n = epoll_wait(epfd, events, 512, timeout);
  for (int i = 0; i < n; i++) {
    if (events[i].data.u32 == 0xffffffffu) continue; /* stdin: handled by the caller */
    on_readable((int)events[i].data.u32);
  }
}

static int stdin_ready(void) {
  struct timeval tv = {0, 0};
  fd_set set;
  FD_ZERO(&set);
  FD_SET(0, &set);
  return select(1, &set, NULL, NULL, &tv) > 0;
}

static void do_connect(int port, const char *path, int count) {
  double started = now_ms();
  int base = nclients;
  clients = realloc(clients, (base + count) * sizeof(client_t));
  char request[1024];
  int rlen = snprintf(request, sizeof request,
                      "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                      path);
  for (int i = base; i < base + count; i++) {
    client_t *c = &clients[i];
    memset(c, 0, sizeof *c);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
      fprintf(stderr, "wsload: connect: %s\n", strerror(errno));
      exit(2);
    }
    if (write(c->fd, request, rlen) != rlen) exit(2);
    fcntl(c->fd, F_SETFL, O_NONBLOCK);
    watch(i);
    nclients++;
    /* A crowd at a time, each answered before the next: more than the server's listen
       backlog at once overflows it, and a dropped SYN is retried by the kernel a second
       later, which measures its timer instead of the server. */
    if ((i - base) % 250 == 249 || i == base + count - 1) {
      for (;;) {
        int pending = 0;
        for (int k = base + (i - base) / 250 * 250; k <= i; k++) pending += !clients[k].upgraded;
        if (!pending) break;
        loop_once(10);
      }
    }
  }
  for (;;) {
    int pending = 0;
    for (int i = base; i < nclients; i++) pending += !clients[i].upgraded;
    if (!pending) break;
    loop_once(10);
  }
  printf("{\"ms\":%.1f,\"connected\":%d}\n", now_ms() - started, nclients);
}

static void do_report(int expected) {
  printf("{\"received\":%ld,\"lastArrival\":%.3f,\"firsts\":[", received_total, last_arrival);
  int comma = 0;
  for (long s = 1; s <= seq_max; s++)
    if (seen[s]) printf("%s%.3f", comma++ ? "," : "", first_at[s] - sent_at[s]);
  printf("],\"lasts\":[");
  comma = 0;
  for (long s = 1; s <= seq_max; s++)
    if (seen[s] >= expected) printf("%s%.3f", comma++ ? "," : "", last_at[s] - sent_at[s]);
  printf("],\"counts\":[");
  comma = 0;
  for (long s = 1; s <= seq_max; s++)
    if (seen[s]) printf("%s%d", comma++ ? "," : "", seen[s]);
  printf("],\"perClient\":[");
  for (int i = 0; i < nclients; i++) printf("%s%ld", i ? "," : "", clients[i].received);
  printf("]}\n");
}

static void print_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s);
  }
  putchar('"');
}

int main(void) {
  setvbuf(stdout, NULL, _IOFBF, 1 << 20);
  epfd = epoll_create1(0);
  char line[4096];
  for (;;) {
    while (!stdin_ready()) loop_once(5);
    if (!fgets(line, sizeof line, stdin)) return 0;
    char cmd[32] = {0}, path[2048] = {0};
    int a = 0, b = 0;
    sscanf(line, "%31s", cmd);
    if (!strcmp(cmd, "connect")) {
      sscanf(line, "%*s %d %2047s %d", &a, path, &b);
      do_connect(a, path, b);
    } else if (!strcmp(cmd, "reset")) {
      if (seq_cap) memset(seen, 0, seq_cap * sizeof(int));
      seq_max = 0;
      received_total = 0;
      last_arrival = 0;
      for (int i = 0; i < nclients; i++) clients[i].received = 0;
      printf("{}\n");
    } else if (!strcmp(cmd, "report")) {
      sscanf(line, "%*s %d", &a);
      do_report(a);
    } else if (!strcmp(cmd, "pause") || !strcmp(cmd, "resume")) {
      sscanf(line, "%*s %d", &a);
      if (a >= 0 && a < nclients) {
        if (cmd[0] == 'p' && !clients[a].paused) epoll_ctl(epfd, EPOLL_CTL_DEL, clients[a].fd, NULL);
        if (cmd[0] == 'r' && clients[a].paused) watch(a);
        clients[a].paused = cmd[0] == 'p';
      }
      printf("{}\n");
    } else if (!strcmp(cmd, "exclude")) {
      sscanf(line, "%*s %d", &excluded);
      printf("{}\n");
    } else if (!strcmp(cmd, "state")) {
      printf("{\"state\":{");
      int comma = 0;
      for (int k = 0; k < state_cap; k++)
        if (state[k]) {
          printf("%s\"bench/p%d\":", comma++ ? "," : "", k);
          print_json_string(state[k]);
        }
      printf("}}\n");
    } else if (!strcmp(cmd, "close")) {
      for (int i = 0; i < nclients; i++) close(clients[i].fd);
      nclients = 0;
      printf("{}\n");
    } else {
      printf("{\"error\":\"unknown command\"}\n");
    }
    fflush(stdout);
  }
}
