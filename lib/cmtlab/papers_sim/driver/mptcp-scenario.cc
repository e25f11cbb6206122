// mptcp-scenario — one run of the Chihani–Collange ns-3 MPTCP model (ns-3.7), for cmtlab.papers_sim.
//
// Faithful to the overlay's example scratch/mpTopology.cc (what Arabi et al. "modified" and what
// Alheid et al. most likely started from) in everything that reaches the model:
//   * two nodes joined directly by one point-to-point link per path (10.1.<i+1>.0/24, client .1,
//     server .2), MpInternetStackHelper on both, DropTail queues (ns-3.7 default: 100 packets),
//     MTU 1500 (so the model's MSS = L3 MTU - 100 = 1400 B);
//   * server: ns3::MpTcpPacketSink on 10.1.1.2:5000 with attribute algopr = the reordering
//     algorithm (the sink allocates a 14000 B receive buffer and reads 2000 B per notification);
//   * client: new MpTcpSocketImpl(client), SetCongestionCtrlAlgo(cc), SetDataDistribAlgo
//     (Round_Robin), SetPacketReorderAlgo(pr), Bind(); at t = 0: SetMaxSubFlowNumber(5),
//     SetMinSubFlowNumber(3), SetSourceAddress(10.1.1.1), allocateSendingBuffer(14000),
//     allocateRecvingBuffer(2000), SetunOrdBufMaxSize(50), Connect(10.1.1.2, 5000);
//     application writes from 1.0 s after the connection succeeded, WriteUntilBufferFull with
//     writes of at most the send-buffer size, variateDelay(client) after every write;
//   * logging: MpTcpSocketImpl at LOG_WARN (mpTopology's default), which also executes the
//     model's warning statements (the model computes its "GlobalThroughput" inside them).
// Where it differs (none of it changes what the model computes):
//   * rates, one-way delays, number of paths, transfer size, buffers, loss are options (mpTopology
//     hard-codes 2 x 5 Mbit/s, 100 ms and 10 MB; its --sf option is ignored by a typo);
//   * variateDelay can be switched off (--variate-delay=0);
//   * no pcap files; the simulation stops when the transfer is complete (or at --duration after
//     the first data segment) instead of running to mpTopology's 3.6e8 s;
//   * the sink's receive and accept callbacks are replaced by ones that do exactly what the sink's
//     do (read 2000 B per notification) and also record when the last byte arrived;
//   * --release-acked=0 turns off the performance patch 06 (acknowledged segments leave the sent list);
//     the output also carries a hash of the model's whole warning log ("log_fnv1a"), so that runs with
//     and without it can be compared line by line;
//   * time(): the model's F_RTO code reads the wall clock (time(NULL)) to draw its ACK-discarding
//     probability; --frto-clock=N makes time() return N (an F_RTO "repetition" is a clock value),
//     without it time() is the real wall clock as in the original;
//   * optional per-subflow random loss uses the model's own mechanism (SetLossThreshold: new data
//     segments dropped at the sender with probability p, drawn with rand()): --loss=p sets it on
//     every subflow, --loss=p0,p1,... per subflow (subflows beyond the list: 0); the model seeds
//     rand() with a constant (srand(65536) in every socket constructor), so --loss-seed=N re-seeds
//     it with N + 1 when the loss is switched on (1 s after the connection, before any data), which
//     makes N one repetition of the loss pattern; without it the model's constant stands.
// The Wi-Fi driver (mptcp-wifi-scenario.cc) includes this file with MPTCP_SCENARIO_NO_MAIN defined and
// uses everything here but main(): the options every driver takes (ParseCommonOption), the model's
// log (StartModelLog), the flow between a sending and a receiving node (InstallFlow) and the run
// and its JSON report (RunAndReport; g_extraJson adds a driver's own fields).
// Output: one JSON object on stdout (counters parsed from the model's own warning lines, samples
// of cwnd, RTT estimate, "global throughput" and delivered bytes every --sample seconds).

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>
#include <sys/time.h>

#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/config.h"
#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/node-container.h"
#include "ns3/net-device-container.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-interface.h"
#include "ns3/application-container.h"
#include "ns3/inet-socket-address.h"
#include "ns3/mp-internet-stack-helper.h"
// The driver reads (never writes) a few of the socket's protected members (subflow list, the
// receiver's out-of-order list) to sample them; access specifiers do not change the layout.
#define protected public
#define private public
#include "ns3/mp-tcp-socket-impl.h"
#include "ns3/mp-tcp-packet-sink.h"
#undef protected
#undef private

using namespace ns3;

// ------------------------------------------------------------------------------------ wall clock
static long long g_frtoClock = -1;   // < 0: the real wall clock

extern "C" time_t time (time_t *out)
{
  time_t v;
  if (g_frtoClock >= 0)
    {
      v = (time_t) g_frtoClock;
    }
  else
    {
      struct timeval tv;
      gettimeofday (&tv, 0);
      v = tv.tv_sec;
    }
  if (out) *out = v;
  return v;
}

// ------------------------------------------------------------------------------------ options
struct Options
{
  std::vector<double> rates, delays;
  int cc, pr;
  double bytes;          // <= 0: unlimited (duration mode)
  double duration;       // <= 0: until the transfer completes
  unsigned sndbuf, rcvbuf, clientRcvbuf, unordMax, queue;
  int variate;
  std::vector<double> loss;   // per subflow; one value: every subflow
  long long lossSeed;         // < 0: keep the model's srand (65536)
  double sample;
  double maxTime;
  Options () : cc (3), pr (3), bytes (10000000), duration (0), sndbuf (14000), rcvbuf (14000),
               clientRcvbuf (2000), unordMax (50), queue (100), variate (1), lossSeed (-1), sample (0.1),
               maxTime (36000) {}
};

static std::vector<double> ParseList (const std::string &s)
{
  std::vector<double> out;
  std::stringstream ss (s);
  std::string item;
  while (std::getline (ss, item, ','))
    out.push_back (atof (item.c_str ()));
  return out;
}

static void Die (const std::string &msg)
{
  std::cerr << "mptcp-scenario: " << msg << std::endl;
  exit (2);
}

// ------------------------------------------------------------------------------------ state
static Options g_opt;
static Ptr<Node> g_client, g_server;            // the sending node (the model's "client") and the receiving one
static Ipv4Address g_clientAddress ("10.1.1.1"); // the sender's first address: the first subflow leaves from it
static Ptr<MpTcpSocketImpl> g_socket;
static Ptr<MpTcpPacketSink> g_sink;
static double g_currentTx = 0;         // bytes handed to the socket
static unsigned long long g_rx = 0;    // bytes the sink read
static double g_firstData = -1, g_done = -1, g_firstWrite = -1;
static uint8_t *g_data = 0;
static uint8_t g_rbuf[2000];
static unsigned g_maxOoo = 0;
static unsigned long long g_queueDrops = 0;

struct SubflowCounters
{
  unsigned long long segments, bytes, rtoRetx, fastRetx, timeouts, reductions, modelDrops, dupack3;
  SubflowCounters () : segments (0), bytes (0), rtoRetx (0), fastRetx (0), timeouts (0), reductions (0),
                       modelDrops (0), dupack3 (0) {}
};
static std::vector<SubflowCounters> g_sf (8);
static unsigned long long g_spuriousEifel = 0, g_spuriousDsack = 0, g_spuriousFrto = 0, g_dsackAcks = 0,
                          g_frtoStep2 = 0, g_warnLines = 0, g_fastRecoveryDupacks = 0;

struct Sample
{
  double t, gtput;
  unsigned long long rx;
  unsigned ooo;
  std::vector<double> cwnd, rtt;
};
static std::vector<Sample> g_samples;

// ------------------------------------------------------------------------------------ the model's log
// Every NS_LOG_WARN line of the model goes through std::clog; this buffer parses each line for
// the events it reports (and never prints them).
static void TakeSample ();
static Sample Snapshot ();
static void StopAtDuration ();

static void FirstData ()
{
  g_firstData = Simulator::Now ().GetSeconds ();
  TakeSample ();   // samples at first data + k * sample
  if (g_opt.duration > 0)
    Simulator::Schedule (Seconds (g_opt.duration), &StopAtDuration);
}

static int SubflowOf (const std::string &line, const char *key)
{
  size_t p = line.find (key);
  if (p == std::string::npos) return -1;
  p += strlen (key);
  while (p < line.size () && (line[p] == ' ' || line[p] == '(')) p++;
  int v = atoi (line.c_str () + p);
  return (v >= 0 && v < 8) ? v : -1;
}

// FNV-1a (64 bit) over every warning line of the model, the list sizes that patch 06 shortens
// masked: two runs with the same hash logged the same events with the same values.
static unsigned long long g_logHash = 1469598103934665603ULL;

static void HashLine (const std::string &line)
{
  static const char *masked[] = {"unacked packets count is ", "mapDSN size is "};
  std::string l = line;
  for (int m = 0; m < 2; m++)
    {
      size_t p = l.find (masked[m]);
      if (p != std::string::npos)
        {
          size_t q = p + strlen (masked[m]);
          size_t e = q;
          while (e < l.size () && l[e] >= '0' && l[e] <= '9') e++;
          l.replace (q, e - q, "#");
        }
    }
  for (size_t i = 0; i < l.size (); i++)
    {
      g_logHash ^= (unsigned char) l[i];
      g_logHash *= 1099511628211ULL;
    }
  g_logHash ^= (unsigned char) '\n';
  g_logHash *= 1099511628211ULL;
}

static void ParseLine (const std::string &line)
{
  g_warnLines++;
  HashLine (line);
  int k;
  if (line.find (" SentSegment -> ") != std::string::npos)
    {
      k = SubflowOf (line, " Subflow ");
      size_t p = line.find (" Data ");
      if (k >= 0 && p != std::string::npos)
        {
          g_sf[k].segments++;
          g_sf[k].bytes += strtoull (line.c_str () + p + 6, 0, 10);
        }
      if (g_firstData < 0) FirstData ();
    }
  else if (line.find (" RetransmitSegment -> ") != std::string::npos)
    {
      k = SubflowOf (line, " Subflow ");
      if (k >= 0)
        {
          if (line.find ("RTO_Timeout") != std::string::npos) g_sf[k].rtoRetx++;
          else g_sf[k].fastRetx++;
        }
    }
  else if (line.find ("ReTxTimeout Expired") != std::string::npos)
    {
      k = SubflowOf (line, "Subflow");
      if (k >= 0) g_sf[k].timeouts++;
    }
  else if (line.find ("ReTxTimeout subflow") != std::string::npos)
    {  // the timer fired in CLOSED/TIMED_WAIT: the model returns without acting
      k = SubflowOf (line, "ReTxTimeout subflow");
      if (k >= 0 && g_sf[k].timeouts > 0) g_sf[k].timeouts--;
    }
  else if (line.find (" reducing cwnd from ") != std::string::npos)
    {
      k = SubflowOf (line, " Subflow ");
      if (k >= 0) g_sf[k].reductions++;
    }
  else if (line.find ("3rd duplicated ACK") != std::string::npos)
    {
      k = SubflowOf (line, "Subflow");
      if (k >= 0) g_sf[k].dupack3++;
    }
  else if (line.find ("-> Packet Droped") != std::string::npos)
    {
      k = SubflowOf (line, "sFlowIdx");
      if (k >= 0) g_sf[k].modelDrops++;
    }
  else if (line.find ("A Spurious Retransmission detected ->") != std::string::npos) g_spuriousEifel++;
  else if (line.find ("A Spurious Retransmission detected =>") != std::string::npos) g_spuriousDsack++;
  else if (line.find ("F-RTO -> A spurious timeout") != std::string::npos) g_spuriousFrto++;
  else if (line.find ("Entering step 2 of the F-RTO") != std::string::npos) g_frtoStep2++;
  else if (line.find (" DSACK_option -> ") != std::string::npos) g_dsackAcks++;
  else if (line.find (" Fast Recovery -> duplicated ACK") != std::string::npos) g_fastRecoveryDupacks++;
}

class LineParser : public std::streambuf
{
  std::string m_line;
protected:
  virtual int overflow (int c)
  {
    if (c == EOF) return 0;
    if (c == '\n') { ParseLine (m_line); m_line.clear (); }
    else m_line.push_back ((char) c);
    return c;
  }
  virtual std::streamsize xsputn (const char *s, std::streamsize n)
  {
    for (std::streamsize i = 0; i < n; i++) overflow ((unsigned char) s[i]);
    return n;
  }
};

// ------------------------------------------------------------------------------------ mpTopology's functions
static void variateDelay (Ptr<Node> node)
{  // verbatim from scratch/mpTopology.cc
  Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol> ();
  TimeValue delay;
  for (uint32_t i = 0; i < ipv4->GetNInterfaces (); i++)
    {
      Ptr<Ipv4Interface> interface = ipv4->GetInterface (i);
      Ipv4InterfaceAddress interfaceAddr = interface->GetAddress (0);
      if (interfaceAddr.GetLocal () == Ipv4Address::GetLoopback ())
        continue;
      Ptr<NetDevice> netDev = interface->GetDevice ();
      Ptr<Channel> P2Plink = netDev->GetChannel ();
      P2Plink->GetAttribute (std::string ("Delay"), delay);
      double oldDelay = delay.Get ().GetSeconds ();
      std::stringstream strDelay;
      double newDelay = (rand () % 100) * 0.001;
      double err = newDelay - oldDelay;
      strDelay << (0.95 * oldDelay + 0.05 * err) << "s";
      P2Plink->SetAttribute (std::string ("Delay"), StringValue (strDelay.str ()));
      P2Plink->GetAttribute (std::string ("Delay"), delay);
    }
}

static void WriteUntilBufferFull (Ptr<Socket> localSocket, unsigned int txSpace)
{
  if (g_firstWrite < 0) g_firstWrite = Simulator::Now ().GetSeconds ();
  while ((g_opt.bytes <= 0 || g_currentTx < g_opt.bytes) && g_socket->GetTxAvailable () > 0)
    {
      double left = g_opt.bytes > 0 ? g_opt.bytes - g_currentTx : 1e18;
      uint32_t toWrite = std::min (g_opt.sndbuf, g_socket->GetTxAvailable ());
      if (left < toWrite) toWrite = (uint32_t) left;
      int amountBuffered = g_socket->FillBuffer (g_data, toWrite);
      g_currentTx += amountBuffered;
      if (g_opt.variate) variateDelay (g_client);
      g_socket->SendBufferedData ();
    }
}

static void ApplyLoss ()
{
  if (g_opt.lossSeed >= 0)
    srand ((unsigned) (g_opt.lossSeed + 1));   // + 1: glibc's srand (0) is srand (1)
  for (uint32_t i = 0; i < g_socket->subflows.size (); i++)
    {
      double p = g_opt.loss.size () == 1 ? g_opt.loss[0] : (i < g_opt.loss.size () ? g_opt.loss[i] : 0.0);
      if (p > 0)
        g_socket->SetLossThreshold (i, p);
    }
}

static void connectionSucceeded (Ptr<Socket>)
{
  Simulator::Schedule (Seconds (1.0), &ApplyLoss);
  Simulator::Schedule (Seconds (1.0), &WriteUntilBufferFull, g_socket, 0);
}
static void connectionFailed (Ptr<Socket>) { g_socket->Close (); }
static void HandlePeerClose (Ptr<Socket>) { g_socket->Close (); }
static void HandlePeerError (Ptr<Socket>) { g_socket->Close (); }

static void StartFlow (Ipv4Address servAddress, uint16_t servPort)
{
  g_socket->SetMaxSubFlowNumber (5);
  g_socket->SetMinSubFlowNumber (3);
  g_socket->SetSourceAddress (g_clientAddress);
  g_socket->allocateSendingBuffer (g_opt.sndbuf);
  g_socket->allocateRecvingBuffer (g_opt.clientRcvbuf);
  g_socket->SetunOrdBufMaxSize (g_opt.unordMax);
  int connectionState = g_socket->Connect (servAddress, servPort);
  if (connectionState == 0)
    {
      g_socket->SetConnectCallback (MakeCallback (&connectionSucceeded), MakeCallback (&connectionFailed));
      g_socket->SetDataSentCallback (MakeCallback (&WriteUntilBufferFull));
      g_socket->SetCloseCallbacks (MakeCallback (&HandlePeerClose), MakeCallback (&HandlePeerError));
      g_socket->GetSubflow (0)->StartTracing ("CongestionWindow");
    }
  else
    Die ("the model's Connect() failed");
}

// ------------------------------------------------------------------------------------ measurement
static void SinkRead (Ptr<Socket>)
{  // what MpTcpPacketSink::HandleRead does (Recv up to 2000 B), plus the completion time
  Ptr<MpTcpSocketImpl> s = g_sink->getMpTcpSocket ();
  uint32_t n = s->Recv (g_rbuf, sizeof (g_rbuf));
  g_rx += n;
  if (s->unOrdered.size () > g_maxOoo) g_maxOoo = s->unOrdered.size ();
  if (g_opt.bytes > 0 && g_done < 0 && (double) g_rx >= g_opt.bytes)
    {
      g_done = Simulator::Now ().GetSeconds ();
      g_samples.push_back (Snapshot ());
      Simulator::Stop ();
    }
}

static void SinkAccept (Ptr<Socket> s, const Address &)
{  // MpTcpPacketSink::HandleAccept sets its HandleRead on the accepted socket (the listening one)
  s->SetRecvCallback (MakeCallback (&SinkRead));
}

static void HookSink ()
{
  if (g_sink->getMpTcpSocket () == 0)
    {  // the sink's StartApplication (scheduled when the simulation starts) has not run yet
      Simulator::ScheduleNow (&HookSink);
      return;
    }
  g_sink->getMpTcpSocket ()->SetRecvCallback (MakeCallback (&SinkRead));
  g_sink->getMpTcpSocket ()->SetAcceptCallback (MakeNullCallback<bool, Ptr<Socket>, const Address &> (),
                                                MakeCallback (&SinkAccept));
  if (g_opt.rcvbuf != 14000)  // the sink allocated 14000 B in StartApplication
    g_sink->getMpTcpSocket ()->allocateRecvingBuffer (g_opt.rcvbuf);
}

static void QueueDrop (Ptr<const Packet>) { g_queueDrops++; }

static unsigned long long g_sampleIndex = 0;

static Sample Snapshot ()
{
  Sample s;
  s.t = Simulator::Now ().GetSeconds ();
  s.gtput = g_socket->subflows.size () ? g_socket->getGlobalThroughput () : 0.0;
  s.rx = g_rx;
  s.ooo = g_sink->getMpTcpSocket () != 0 ? g_sink->getMpTcpSocket ()->unOrdered.size () : 0;
  for (uint32_t i = 0; i < g_socket->subflows.size (); i++)
    {
      s.cwnd.push_back (g_socket->subflows[i]->cwnd);
      s.rtt.push_back (g_socket->subflows[i]->rtt->est.GetSeconds ());
    }
  return s;
}

static void TakeSample ()
{  // at first data + k * sample (k = 0, 1, ...), scheduled on absolute times so that no error accumulates
  g_samples.push_back (Snapshot ());
  g_sampleIndex++;
  Time next = Seconds (g_firstData + g_sampleIndex * g_opt.sample);
  Simulator::Schedule (next - Simulator::Now (), &TakeSample);
}

static void StopAtDuration ()
{
  g_samples.push_back (Snapshot ());
  Simulator::Stop ();
}

// ------------------------------------------------------------------------------------ JSON
static std::string Num (double v)
{
  if (v != v || v > 1.7e308 || v < -1.7e308) return "null";
  std::ostringstream o;
  o.precision (17);
  o << v;
  return o.str ();
}

template <class T, class F>
static void Array (std::ostream &o, const std::vector<T> &v, F f)
{
  o << "[";
  for (size_t i = 0; i < v.size (); i++) { if (i) o << ","; o << f (v[i]); }
  o << "]";
}

static std::string FT (const Sample &s) { return Num (s.t); }
static std::string FG (const Sample &s) { return Num (s.gtput); }
static std::string FR (const Sample &s) { std::ostringstream o; o << s.rx; return o.str (); }
static std::string FO (const Sample &s) { std::ostringstream o; o << s.ooo; return o.str (); }
static size_t g_col = 0;
static std::string FC (const Sample &s) { return g_col < s.cwnd.size () ? Num (s.cwnd[g_col]) : "null"; }
static std::string FRt (const Sample &s) { return g_col < s.rtt.size () ? Num (s.rtt[g_col]) : "null"; }

// ------------------------------------------------------------------------------------ shared by the drivers
// An option every driver takes; false if k is not one of them.
static bool ParseCommonOption (const std::string &k, const std::string &v)
{
  if (k == "cc") g_opt.cc = atoi (v.c_str ());
  else if (k == "pr") g_opt.pr = atoi (v.c_str ());
  else if (k == "bytes") g_opt.bytes = atof (v.c_str ());
  else if (k == "duration") g_opt.duration = atof (v.c_str ());
  else if (k == "sndbuf") g_opt.sndbuf = atoi (v.c_str ());
  else if (k == "rcvbuf") g_opt.rcvbuf = atoi (v.c_str ());
  else if (k == "loss") g_opt.loss = ParseList (v);
  else if (k == "loss-seed") g_opt.lossSeed = atoll (v.c_str ());
  else if (k == "sample") g_opt.sample = atof (v.c_str ());
  else if (k == "max-time") g_opt.maxTime = atof (v.c_str ());
  else if (k == "frto-clock") g_frtoClock = atoll (v.c_str ());
  else if (k == "release-acked") g_mpTcpReleaseAckedSegments = atoi (v.c_str ()) != 0;
  else return false;
  return true;
}

// The common options' checks for a run over nPaths paths; allocates the application's data.
static void CheckCommonOptions (size_t nPaths)
{
  if (g_opt.cc < 0 || g_opt.cc > 3) Die ("--cc must be 0..3");
  if (g_opt.pr < 0 || g_opt.pr > 5) Die ("--pr must be 0..5 (5: PR-R, patch 05)");
  if (g_opt.bytes <= 0 && g_opt.duration <= 0) Die ("give --bytes or --duration");
  if (g_opt.sample <= 0) Die ("--sample must be > 0");
  for (size_t i = 0; i < g_opt.loss.size (); i++)
    if (!(g_opt.loss[i] >= 0 && g_opt.loss[i] < 1)) Die ("--loss values must be in [0, 1)");
  if (g_opt.loss.size () > 1 && g_opt.loss.size () != nPaths)
    Die ("--loss needs one value (every subflow) or one per path");
  g_data = new uint8_t[g_opt.sndbuf];
  memset (g_data, 0, g_opt.sndbuf);
}

// The model's warning lines go to the parser (mpTopology's log levels).
static LineParser g_parser;
static std::streambuf *g_origClog = 0;
static void StartModelLog ()
{
  g_origClog = std::clog.rdbuf (&g_parser);
  LogComponentEnable ("MpTcpSocketImpl", LOG_WARN);   // mpTopology's default (arg3 == -1)
  LogComponentEnable ("MpTcpPacketSink", LOG_WARN);
  LogComponentEnable ("MpTcpHeader", LOG_WARN);
}

// mpTopology's flow: the sink on the receiving node listening on receiverAddress:5000, the model's
// socket on the sending node (g_client, first address g_clientAddress), connecting at time 'start'.
static void InstallFlow (Ipv4Address receiverAddress, Time start)
{
  uint32_t servPort = 5000;
  ObjectFactory m_sf;
  m_sf.SetTypeId ("ns3::MpTcpPacketSink");
  m_sf.Set ("Protocol", StringValue ("ns3::TcpSocketFactory"));
  m_sf.Set ("Local", AddressValue (InetSocketAddress (receiverAddress, servPort)));
  m_sf.Set ("algopr", UintegerValue ((uint32_t) g_opt.pr));
  Ptr<Application> sapp = m_sf.Create<Application> ();
  g_server->AddApplication (sapp);
  g_sink = DynamicCast<MpTcpPacketSink> (sapp);
  ApplicationContainer Apps;
  Apps.Add (sapp);
  Apps.Start (Seconds (0.0));

  g_socket = new MpTcpSocketImpl (g_client);
  g_socket->SetCongestionCtrlAlgo ((CongestionCtrl_t) g_opt.cc);
  g_socket->SetDataDistribAlgo (Round_Robin);
  g_socket->SetPacketReorderAlgo ((PacketReorder_t) g_opt.pr);
  g_socket->Bind ();

  if (start.GetSeconds () == 0)
    Simulator::ScheduleNow (&StartFlow, receiverAddress, (uint16_t) servPort);   // as mpTopology
  else
    Simulator::Schedule (start, &StartFlow, receiverAddress, (uint16_t) servPort);
  Simulator::ScheduleNow (&HookSink);       // after the sink's StartApplication (same time, later)
}

// A driver's own fields, written into the JSON object before it closes (0: none).
static void (*g_extraJson) (std::ostream &) = 0;

// Runs the simulation and prints the JSON report.
static int RunAndReport ()
{
  Simulator::Stop (Seconds (g_opt.maxTime));
  Simulator::Run ();

  double end = Simulator::Now ().GetSeconds ();
  std::clog.rdbuf (g_origClog);
  std::ostream &o = std::cout;
  o << "{\"model\":\"Chihani-Collange ns-3 MPTCP (ns-3.7)\"";
  o << ",\"completed\":" << (g_done >= 0 ? "true" : "false");
  o << ",\"first_write_s\":" << Num (g_firstWrite) << ",\"first_data_s\":" << Num (g_firstData);
  o << ",\"done_s\":" << Num (g_done) << ",\"end_s\":" << Num (end);
  o << ",\"bytes_requested\":" << Num (g_opt.bytes) << ",\"bytes_written\":" << Num (g_currentTx);
  o << ",\"delivered_bytes\":" << g_rx << ",\"max_ooo_segments\":" << g_maxOoo;
  o << ",\"queue_drops\":" << g_queueDrops << ",\"n_subflows\":" << g_socket->subflows.size ();
  o << ",\"spurious_eifel\":" << g_spuriousEifel << ",\"spurious_dsack\":" << g_spuriousDsack;
  o << ",\"spurious_frto\":" << g_spuriousFrto << ",\"frto_step2\":" << g_frtoStep2;
  o << ",\"dsack_acks\":" << g_dsackAcks << ",\"fast_recovery_dupacks\":" << g_fastRecoveryDupacks;
  Ptr<MpTcpSocketImpl> ss = g_sink->getMpTcpSocket ();
  o << ",\"receiver_next_dsn\":" << (ss != 0 ? ss->nextRxSequence : 0);
  o << ",\"receiver_buffered_bytes\":" << ((ss != 0 && ss->recvingBuffer != 0) ? ss->recvingBuffer->PendingData () : 0);
  o << ",\"warning_lines\":" << g_warnLines << ",\"frto_clock\":" << g_frtoClock;
  { std::ostringstream h; h << std::hex << g_logHash; o << ",\"log_fnv1a\":\"" << h.str () << "\""; }
  o << ",\"release_acked\":" << (g_mpTcpReleaseAckedSegments ? "true" : "false");
  o << ",\"released_reads\":{\"acked_segment_by_end\":" << g_mpTcpReleasedReads[0]
    << ",\"late_duplicate_ack\":" << g_mpTcpReleasedReads[1] << ",\"dsack_named\":" << g_mpTcpReleasedReads[2]
    << ",\"count_brought_up_to_date\":" << g_mpTcpReleasedReads[3] << ",\"dsack_block_found\":" << g_mpTcpReleasedReads[4] << "}";
  o << ",\"receiver\":{\"data_segments\":" << g_mpTcpRxDataSegments << ",\"new_segments\":" << g_mpTcpRxNewSegments
    << ",\"stored_ooo\":" << g_mpTcpRxStoredOoo << ",\"max_ooo_segments\":" << g_mpTcpRxMaxOooSegments
    << ",\"max_ooo_bytes\":" << g_mpTcpRxMaxOooBytes << "}";
  o << ",\"subflows\":[";
  for (size_t i = 0; i < g_socket->subflows.size (); i++)
    {
      MpTcpSubFlow *f = g_socket->subflows[i];
      const SubflowCounters &c = g_sf[i];
      if (i) o << ",";
      o << "{\"index\":" << i << ",\"src\":\"" << f->sAddr << "\",\"dst\":\"" << f->dAddr << "\"";
      o << ",\"mss\":" << f->MSS << ",\"segments_sent\":" << c.segments << ",\"bytes_sent\":" << c.bytes;
      o << ",\"rto_retransmissions\":" << c.rtoRetx << ",\"fast_retransmissions\":" << c.fastRetx;
      o << ",\"timeouts\":" << c.timeouts << ",\"cwnd_reductions\":" << c.reductions;
      o << ",\"third_dupacks\":" << c.dupack3 << ",\"model_drops\":" << c.modelDrops;
      o << ",\"final_cwnd\":" << Num (f->cwnd) << ",\"final_ssthresh\":" << f->ssthresh;
      o << ",\"final_rtt_est_s\":" << Num (f->rtt->est.GetSeconds ()) << "}";
    }
  o << "],\"samples\":{\"t\":";
  Array (o, g_samples, FT);
  o << ",\"global_throughput_bps\":";
  Array (o, g_samples, FG);
  o << ",\"delivered_bytes\":";
  Array (o, g_samples, FR);
  o << ",\"ooo_segments\":";
  Array (o, g_samples, FO);
  o << ",\"cwnd\":[";
  for (g_col = 0; g_col < g_socket->subflows.size (); g_col++)
    {
      if (g_col) o << ",";
      Array (o, g_samples, FC);
    }
  o << "],\"rtt_est_s\":[";
  for (g_col = 0; g_col < g_socket->subflows.size (); g_col++)
    {
      if (g_col) o << ",";
      Array (o, g_samples, FRt);
    }
  o << "]}";
  if (g_extraJson)
    g_extraJson (o);
  o << "}" << std::endl;
  Simulator::Destroy ();
  return 0;
}

// ------------------------------------------------------------------------------------ main
#ifndef MPTCP_SCENARIO_NO_MAIN
int main (int argc, char *argv[])
{
  std::string rates = "5e6,5e6", delays = "0.1,0.1";
  for (int i = 1; i < argc; i++)
    {
      std::string a = argv[i];
      size_t eq = a.find ('=');
      if (a.compare (0, 2, "--") != 0 || eq == std::string::npos) Die ("arguments are --name=value, got " + a);
      std::string k = a.substr (2, eq - 2), v = a.substr (eq + 1);
      if (k == "rates") rates = v;
      else if (k == "delays") delays = v;
      else if (k == "queue") g_opt.queue = atoi (v.c_str ());
      else if (k == "variate-delay") g_opt.variate = atoi (v.c_str ());
      else if (!ParseCommonOption (k, v)) Die ("unknown option --" + k);
    }
  g_opt.rates = ParseList (rates);
  g_opt.delays = ParseList (delays);
  if (g_opt.rates.empty () || g_opt.rates.size () != g_opt.delays.size () || g_opt.rates.size () > 7)
    Die ("--rates and --delays need the same number (1..7) of comma-separated values");
  CheckCommonOptions (g_opt.rates.size ());
  StartModelLog ();

  NodeContainer nodes;
  nodes.Create (2);
  g_client = nodes.Get (0);
  g_server = nodes.Get (1);
  MpInternetStackHelper stack;
  stack.Install (nodes);

  std::vector<Ipv4InterfaceContainer> ipv4Ints;
  for (size_t i = 0; i < g_opt.rates.size (); i++)
    {
      PointToPointHelper p2plink;
      std::ostringstream rate, delay, q;
      rate << (unsigned long long) (g_opt.rates[i] + 0.5) << "bps";
      delay << g_opt.delays[i] << "s";
      p2plink.SetDeviceAttribute ("DataRate", StringValue (rate.str ()));
      p2plink.SetChannelAttribute ("Delay", StringValue (delay.str ()));
      p2plink.SetQueue ("ns3::DropTailQueue", "MaxPackets", UintegerValue (g_opt.queue));
      NetDeviceContainer netDevices = p2plink.Install (nodes);
      std::stringstream netAddr;
      netAddr << "10.1." << (i + 1) << ".0";
      Ipv4AddressHelper ipv4addr;
      ipv4addr.SetBase (netAddr.str ().c_str (), "255.255.255.0");
      ipv4Ints.push_back (ipv4addr.Assign (netDevices));
    }
  Config::ConnectWithoutContext ("/NodeList/*/DeviceList/*/TxQueue/Drop", MakeCallback (&QueueDrop));

  InstallFlow (ipv4Ints[0].GetAddress (1), Seconds (0.0));
  return RunAndReport ();
}
#endif
