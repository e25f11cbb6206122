// mptcp-wifi-scenario — one run of the Chihani–Collange ns-3 MPTCP model (ns-3.7) over Wi-Fi, for
// cmtlab.papers_sim.wifi: the topology of Alheid et al. (ICT 2016), Fig. 3 and sec. IV.A.
//
//   server ==(backbone k: --backbone-rate, --backbone-delay)== router --(AP link k)-- AP k ~~(BSS k)~~ mobile
//
// * one path per BSS (--paths, 1..7): each access point (NqapWifiMac, its own SSID) on its own Yans
//   channel (separate channel objects: the BSSs never hear each other), wired to the router by a
//   point-to-point link of the backbone's rate (--ap-link-delay, default 0); the multi-homed
//   mobile has one station (NqstaWifiMac, no active probing) per BSS, at --distance metres from
//   its AP (one value: every path; ConstantPositionMobilityModel);
// * the server has one address per path, each behind its own backbone link to the router: the
//   model pairs the sender's and the receiver's addresses one to one (InitiateSubflows,
//   IsThereRoute), so one server address is one subflow; static host routing keeps subflow k on
//   backbone k, AP k and BSS k both ways;
// * the MPTCP flow of mptcp-scenario.cc (mpTopology's: 14000-B buffers, writes from 1 s after the
//   connection, MSS = L3 MTU - 100 = 1400 B), the data from the server (the model's sending
//   "client" socket, first address 10.3.1.1) to the mobile (the sink, 10.1.1.2:5000) -- a
//   download, as the paper's FTP transfer: the APs send the data, the mobile the TCP ACKs, on the
//   same air; the flow starts at --start (default 1 s: after association);
// * 802.11a OFDM PHY (ns-3.7 has no 802.11g; ERP-OFDM's rates, its 9 us slot, SIFS 10 us + 6 us
//   signal extension and DIFS 28 + 6 us time the exchange as 802.11a's 9 us slot, 16 us SIFS and
//   34 us DIFS do): YansWifiPhy with its error model (YansErrorRateModel), --tx-power dBm,
//   --tx-gain/--rx-gain dB, --noise-figure dB; LogDistancePropagationLossModel (--exponent,
//   --ref-loss dB at 1 m) and ConstantSpeedPropagationDelayModel;
// * rate: --manager=ideal (IdealWifiManager: per frame the fastest mode whose SNR threshold for
//   --ber lies below the SNR the receiver last reported -- without fading a function of the
//   distance) or --manager=constant (ConstantRateWifiManager, --mode, default wifia-54mbs);
//   MAC ACKs at the highest basic rate (6, 12, 24 Mbit/s) not above the data rate;
// * RTS/CTS and fragmentation off (thresholds 2346 B); Wi-Fi MTU 1500 B (ns-3.7's default 2296 B
//   would give the model an MSS of 2196 B); MAC queue --mac-queue packets; backbone and AP-link
//   DropTail queues --queue packets;
// * randomness: --rng-run sets ns-3's run number (MRG32k3a substreams: the DCF back-offs, the
//   PHY's frame-error draws, ...); the model's rand() is re-seeded by --loss-seed as in
//   mptcp-scenario.cc (the drop model of --loss).
// Output: the JSON of mptcp-scenario.cc plus "wifi": per path the distance, when the station
// associated, the AP's and the station's data frames by PHY rate, MAC retransmissions
// (MacTxDataFailed) and frames dropped after the retry limit (MacTxFinalDataFailed), and the
// signal and noise the station measured.

#define MPTCP_SCENARIO_NO_MAIN
#include "mptcp-scenario.cc"

#include <map>
#include "ns3/wifi-helper.h"
#include "ns3/yans-wifi-helper.h"
#include "ns3/nqos-wifi-mac-helper.h"
#include "ns3/mobility-helper.h"
#include "ns3/mobility-model.h"
#include "ns3/ssid.h"
#include "ns3/double.h"
#include "ns3/boolean.h"
#include "ns3/random-variable.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/wifi-mac-header.h"
#include "ns3/position-allocator.h"

struct WifiOptions
{
  unsigned paths;
  std::vector<double> distance;   // m, per path (one value: every path)
  double backboneRate, backboneDelay, apLinkDelay, start;
  unsigned macQueue;
  std::string manager, mode;
  double refLoss, exponent, txPower, txGain, rxGain, noiseFigure, ber;
  long long rngRun;
  WifiOptions () : paths (2), backboneRate (100e6), backboneDelay (0.010), apLinkDelay (0.0), start (1.0),
                   macQueue (500), manager ("ideal"), mode ("wifia-54mbs"), refLoss (46.6777), exponent (3.0),
                   txPower (16.0206), txGain (0.0), rxGain (0.0), noiseFigure (7.0), ber (1e-5), rngRun (1) {}
};
static WifiOptions g_wopt;

// ------------------------------------------------------------------------------------ Wi-Fi counters
struct PathCounters
{
  double assocS;
  std::map<unsigned, unsigned long long> apFramesByRate, staFramesByRate;   // data frames by Mbit/s x 2 (AP: >= 500 B)
  unsigned long long apRetries, staRetries, apFinalDrops, staFinalDrops, staRxFrames;
  double staSignalDbmSum, staNoiseDbmSum;
  PathCounters () : assocS (-1), apRetries (0), staRetries (0), apFinalDrops (0), staFinalDrops (0), staRxFrames (0),
                    staSignalDbmSum (0), staNoiseDbmSum (0) {}
};
static std::vector<PathCounters> g_path;
static std::map<uint32_t, int> g_apNodePath;     // node id -> path (access points)
static uint32_t g_mobileId = 0;

static int NodeOf (const std::string &ctx)
{
  size_t p = ctx.find ("/NodeList/");
  return p == std::string::npos ? -1 : atoi (ctx.c_str () + p + 10);
}

static int DeviceOf (const std::string &ctx)
{
  size_t p = ctx.find ("/DeviceList/");
  return p == std::string::npos ? -1 : atoi (ctx.c_str () + p + 12);
}

// The path a Wi-Fi trace belongs to and whether it is the AP's (else the station's); -1: none.
// The mobile's Wi-Fi devices are its devices 1..paths (0 is the loopback; installed in path order).
static int PathOf (const std::string &ctx, bool *isAp)
{
  int node = NodeOf (ctx);
  std::map<uint32_t, int>::const_iterator a = g_apNodePath.find ((uint32_t) node);
  if (a != g_apNodePath.end ()) { *isAp = true; return a->second; }
  if (node == (int) g_mobileId)
    {
      int dev = DeviceOf (ctx);
      if (dev >= 1 && dev <= (int) g_path.size ()) { *isAp = false; return dev - 1; }
    }
  return -1;
}

// A MAC data frame of at least minBytes (the AP's TCP data segments: 500; the station's TCP ACKs: any).
static bool IsDataFrame (Ptr<const Packet> p, uint32_t minBytes)
{
  WifiMacHeader h;
  Ptr<Packet> c = p->Copy ();
  c->RemoveHeader (h);
  return h.IsData () && p->GetSize () >= minBytes;
}

static void SniffTx (std::string ctx, Ptr<const Packet> p, uint16_t, uint16_t, uint32_t rate500k, bool)
{
  bool ap;
  int k = PathOf (ctx, &ap);
  if (k < 0 || !IsDataFrame (p, ap ? 500 : 0)) return;
  (ap ? g_path[k].apFramesByRate : g_path[k].staFramesByRate)[rate500k]++;
}

static void SniffRx (std::string ctx, Ptr<const Packet> p, uint16_t, uint16_t, uint32_t, bool, double signalDbm,
                     double noiseDbm)
{
  bool ap;
  int k = PathOf (ctx, &ap);
  if (k < 0 || ap || !IsDataFrame (p, 500)) return;
  g_path[k].staRxFrames++;
  g_path[k].staSignalDbmSum += signalDbm;
  g_path[k].staNoiseDbmSum += noiseDbm;
}

static void TxDataFailed (std::string ctx, Mac48Address)
{
  bool ap;
  int k = PathOf (ctx, &ap);
  if (k >= 0) (ap ? g_path[k].apRetries : g_path[k].staRetries)++;
}

static void TxFinalDataFailed (std::string ctx, Mac48Address)
{
  bool ap;
  int k = PathOf (ctx, &ap);
  if (k >= 0) (ap ? g_path[k].apFinalDrops : g_path[k].staFinalDrops)++;
}

static void Assoc (std::string ctx, Mac48Address)
{
  bool ap;
  int k = PathOf (ctx, &ap);
  if (k >= 0 && !ap && g_path[k].assocS < 0) g_path[k].assocS = Simulator::Now ().GetSeconds ();
}

static void CheckAssociated ()
{  // at the flow's start every station must have associated (else the run would measure association)
  for (size_t k = 0; k < g_path.size (); k++)
    if (g_path[k].assocS < 0)
      {
        std::ostringstream m;
        m << "the station of path " << (k + 1) << " has not associated with its access point by --start="
          << g_wopt.start << " s (at " << g_wopt.distance[k] << " m nothing may be received)";
        Die (m.str ());
      }
}

static void RateMap (std::ostream &o, const std::map<unsigned, unsigned long long> &m)
{
  o << "{";
  for (std::map<unsigned, unsigned long long>::const_iterator i = m.begin (); i != m.end (); ++i)
    {
      if (i != m.begin ()) o << ",";
      o << "\"" << Num (i->first * 0.5) << "\":" << i->second;
    }
  o << "}";
}

static void WifiJson (std::ostream &o)
{
  o << ",\"wifi\":{\"standard\":\"802.11a OFDM (ns-3.7), the 802.11g stand-in\",\"manager\":\"" << g_wopt.manager << "\"";
  o << ",\"mode\":\"" << g_wopt.mode << "\",\"ref_loss_db\":" << Num (g_wopt.refLoss) << ",\"exponent\":" << Num (g_wopt.exponent);
  o << ",\"rng_run\":" << g_wopt.rngRun << ",\"paths\":[";
  for (size_t k = 0; k < g_path.size (); k++)
    {
      const PathCounters &c = g_path[k];
      if (k) o << ",";
      o << "{\"distance_m\":" << Num (g_wopt.distance[k]) << ",\"assoc_s\":" << Num (c.assocS);
      o << ",\"ap_data_frames_by_mbps\":";
      RateMap (o, c.apFramesByRate);
      o << ",\"sta_data_frames_by_mbps\":";
      RateMap (o, c.staFramesByRate);
      o << ",\"ap_mac_retries\":" << c.apRetries << ",\"sta_mac_retries\":" << c.staRetries;
      o << ",\"ap_retry_limit_drops\":" << c.apFinalDrops << ",\"sta_retry_limit_drops\":" << c.staFinalDrops;
      o << ",\"sta_rx_data_frames\":" << c.staRxFrames;
      o << ",\"sta_mean_signal_dbm\":" << Num (c.staRxFrames ? c.staSignalDbmSum / c.staRxFrames : -1e400);
      o << ",\"sta_mean_noise_dbm\":" << Num (c.staRxFrames ? c.staNoiseDbmSum / c.staRxFrames : -1e400) << "}";
    }
  o << "]}";
}

// ------------------------------------------------------------------------------------ topology
static std::string Addr (int a, int b, int c, int d)
{
  std::ostringstream s;
  s << a << "." << b << "." << c << "." << d;
  return s.str ();
}

static NetDeviceContainer WiredLink (Ptr<Node> a, Ptr<Node> b, double delayS)
{
  PointToPointHelper link;
  std::ostringstream rate, delay;
  rate << (unsigned long long) (g_wopt.backboneRate + 0.5) << "bps";
  delay << delayS << "s";
  link.SetDeviceAttribute ("DataRate", StringValue (rate.str ()));
  link.SetChannelAttribute ("Delay", StringValue (delay.str ()));
  link.SetQueue ("ns3::DropTailQueue", "MaxPackets", UintegerValue (g_opt.queue));
  return link.Install (a, b);
}

static Ptr<Ipv4StaticRouting> Routing (Ptr<Node> n)
{
  Ipv4StaticRoutingHelper h;
  return h.GetStaticRouting (n->GetObject<Ipv4> ());
}

int main (int argc, char *argv[])
{
  std::string distances = "10";
  for (int i = 1; i < argc; i++)
    {
      std::string a = argv[i];
      size_t eq = a.find ('=');
      if (a.compare (0, 2, "--") != 0 || eq == std::string::npos) Die ("arguments are --name=value, got " + a);
      std::string k = a.substr (2, eq - 2), v = a.substr (eq + 1);
      if (k == "paths") g_wopt.paths = atoi (v.c_str ());
      else if (k == "distance") distances = v;
      else if (k == "backbone-rate") g_wopt.backboneRate = atof (v.c_str ());
      else if (k == "backbone-delay") g_wopt.backboneDelay = atof (v.c_str ());
      else if (k == "ap-link-delay") g_wopt.apLinkDelay = atof (v.c_str ());
      else if (k == "start") g_wopt.start = atof (v.c_str ());
      else if (k == "queue") g_opt.queue = atoi (v.c_str ());
      else if (k == "mac-queue") g_wopt.macQueue = atoi (v.c_str ());
      else if (k == "manager") g_wopt.manager = v;
      else if (k == "mode") g_wopt.mode = v;
      else if (k == "ref-loss") g_wopt.refLoss = atof (v.c_str ());
      else if (k == "exponent") g_wopt.exponent = atof (v.c_str ());
      else if (k == "tx-power") g_wopt.txPower = atof (v.c_str ());
      else if (k == "tx-gain") g_wopt.txGain = atof (v.c_str ());
      else if (k == "rx-gain") g_wopt.rxGain = atof (v.c_str ());
      else if (k == "noise-figure") g_wopt.noiseFigure = atof (v.c_str ());
      else if (k == "ber") g_wopt.ber = atof (v.c_str ());
      else if (k == "rng-run") g_wopt.rngRun = atoll (v.c_str ());
      else if (!ParseCommonOption (k, v)) Die ("unknown option --" + k);
    }
  if (g_wopt.paths < 1 || g_wopt.paths > 7) Die ("--paths must be 1..7");
  g_wopt.distance = ParseList (distances);
  if (g_wopt.distance.size () == 1) g_wopt.distance.resize (g_wopt.paths, g_wopt.distance[0]);
  if (g_wopt.distance.size () != g_wopt.paths) Die ("--distance needs one value (every path) or one per path");
  for (size_t k = 0; k < g_wopt.distance.size (); k++)
    if (!(g_wopt.distance[k] > 0 && g_wopt.distance[k] <= 1e5)) Die ("--distance values must be in (0, 100000] m");
  if (!(g_wopt.backboneRate >= 1e3 && g_wopt.backboneRate <= 1e11)) Die ("--backbone-rate must be in [1e3, 1e11] bit/s");
  if (!(g_wopt.backboneDelay >= 0 && g_wopt.backboneDelay <= 10)) Die ("--backbone-delay must be in [0, 10] s");
  if (!(g_wopt.apLinkDelay >= 0 && g_wopt.apLinkDelay <= 10)) Die ("--ap-link-delay must be in [0, 10] s");
  if (!(g_wopt.start >= 0.5 && g_wopt.start <= 100)) Die ("--start must be in [0.5, 100] s");
  if (g_wopt.manager != "ideal" && g_wopt.manager != "constant") Die ("--manager must be ideal or constant");
  if (g_wopt.rngRun < 1 || g_wopt.rngRun > 4294967295LL) Die ("--rng-run must be in 1..2^32-1");
  if (g_opt.queue < 1 || g_wopt.macQueue < 1) Die ("--queue and --mac-queue must be >= 1");
  g_opt.variate = 0;   // variateDelay() changes point-to-point delays: not in this topology
  CheckCommonOptions (g_wopt.paths);
  StartModelLog ();

  SeedManager::SetRun ((uint32_t) g_wopt.rngRun);
  Config::SetDefault ("ns3::WifiRemoteStationManager::RtsCtsThreshold", UintegerValue (2346));
  Config::SetDefault ("ns3::WifiRemoteStationManager::FragmentationThreshold", UintegerValue (2346));
  Config::SetDefault ("ns3::WifiMacQueue::MaxPacketNumber", UintegerValue (g_wopt.macQueue));
  Config::SetDefault ("ns3::IdealWifiManager::BerThreshold", DoubleValue (g_wopt.ber));

  // nodes: 0 server (the sender), 1 router, 2 mobile (the receiver), 3.. access points
  unsigned n = g_wopt.paths;
  NodeContainer core;
  core.Create (3);
  NodeContainer aps;
  aps.Create (n);
  Ptr<Node> server = core.Get (0), router = core.Get (1), mobile = core.Get (2);
  g_client = server;
  g_server = mobile;
  g_mobileId = mobile->GetId ();
  MpInternetStackHelper stack;
  stack.Install (core);
  stack.Install (aps);
  g_path.resize (n);

  // Wi-Fi first, so that the mobile's device k (and its IPv4 interface k + 1) is BSS k
  Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator> ();
  positions->Add (Vector (0.0, 0.0, 0.0));                         // the mobile
  for (unsigned k = 0; k < n; k++)
    positions->Add (Vector (g_wopt.distance[k], 0.0, 0.0));         // AP k, d_k metres away
  MobilityHelper mobility;
  mobility.SetPositionAllocator (positions);
  mobility.SetMobilityModel ("ns3::ConstantPositionMobilityModel");
  mobility.Install (mobile);
  mobility.Install (aps);
  WifiHelper wifi;
  wifi.SetStandard (WIFI_PHY_STANDARD_80211a);
  if (g_wopt.manager == "ideal")
    wifi.SetRemoteStationManager ("ns3::IdealWifiManager");
  else
    wifi.SetRemoteStationManager ("ns3::ConstantRateWifiManager", "DataMode", StringValue (g_wopt.mode));
  std::vector<NetDeviceContainer> bss (n);
  for (unsigned k = 0; k < n; k++)
    {
      YansWifiChannelHelper channel;
      channel.SetPropagationDelay ("ns3::ConstantSpeedPropagationDelayModel");
      channel.AddPropagationLoss ("ns3::LogDistancePropagationLossModel", "Exponent", DoubleValue (g_wopt.exponent),
                                  "ReferenceDistance", DoubleValue (1.0), "ReferenceLoss", DoubleValue (g_wopt.refLoss));
      YansWifiPhyHelper phy = YansWifiPhyHelper::Default ();
      phy.SetChannel (channel.Create ());
      phy.Set ("TxPowerStart", DoubleValue (g_wopt.txPower));
      phy.Set ("TxPowerEnd", DoubleValue (g_wopt.txPower));
      phy.Set ("TxGain", DoubleValue (g_wopt.txGain));
      phy.Set ("RxGain", DoubleValue (g_wopt.rxGain));
      phy.Set ("RxNoiseFigure", DoubleValue (g_wopt.noiseFigure));
      std::ostringstream name;
      name << "bss-" << (k + 1);
      Ssid ssid (name.str ());
      NqosWifiMacHelper sta = NqosWifiMacHelper::Default ();
      sta.SetType ("ns3::NqstaWifiMac", "Ssid", SsidValue (ssid), "ActiveProbing", BooleanValue (false));
      NqosWifiMacHelper ap = NqosWifiMacHelper::Default ();
      ap.SetType ("ns3::NqapWifiMac", "Ssid", SsidValue (ssid), "BeaconGeneration", BooleanValue (true));
      NetDeviceContainer d = wifi.Install (phy, sta, mobile);
      d.Add (wifi.Install (phy, ap, aps.Get (k)));
      for (uint32_t i = 0; i < d.GetN (); i++)
        d.Get (i)->SetMtu (1500);   // ns-3.7's Wi-Fi default is 2296 B: the model's MSS would be 2196 B
      bss[k] = d;   // [station, AP]
      g_apNodePath[aps.Get (k)->GetId ()] = (int) k;
    }

  // addresses: BSS k 10.1.k.0/24 (AP .1, mobile .2), AP link k 10.2.k.0/24 (router .1, AP .2),
  // backbone k 10.3.k.0/24 (server .1, router .2)
  Ipv4AddressHelper addr;
  for (unsigned k = 0; k < n; k++)
    {
      addr.SetBase (Addr (10, 1, k + 1, 0).c_str (), "255.255.255.0");
      Ipv4InterfaceContainer w = addr.Assign (NetDeviceContainer (bss[k].Get (1), bss[k].Get (0)));
    }
  for (unsigned k = 0; k < n; k++)
    {
      NetDeviceContainer l = WiredLink (router, aps.Get (k), g_wopt.apLinkDelay);
      addr.SetBase (Addr (10, 2, k + 1, 0).c_str (), "255.255.255.0");
      addr.Assign (l);
    }
  for (unsigned k = 0; k < n; k++)
    {
      NetDeviceContainer l = WiredLink (server, router, g_wopt.backboneDelay);
      addr.SetBase (Addr (10, 3, k + 1, 0).c_str (), "255.255.255.0");
      addr.Assign (l);
    }
  // static routes: interface numbers follow the order the devices were added (0 is the loopback)
  //   mobile: Wi-Fi k -> k + 1;  AP k: Wi-Fi 1, AP link 2;  router: AP link k -> k + 1, backbone k -> n + k + 1;
  //   server: backbone k -> k + 1
  for (unsigned k = 0; k < n; k++)
    {
      Ipv4Address bssNet (Addr (10, 1, k + 1, 0).c_str ()), backNet (Addr (10, 3, k + 1, 0).c_str ());
      Ipv4Mask m24 ("255.255.255.0");
      Routing (mobile)->AddNetworkRouteTo (backNet, m24, Ipv4Address (Addr (10, 1, k + 1, 1).c_str ()), k + 1);
      Routing (aps.Get (k))->AddNetworkRouteTo (backNet, m24, Ipv4Address (Addr (10, 2, k + 1, 1).c_str ()), 2);
      Routing (router)->AddNetworkRouteTo (bssNet, m24, Ipv4Address (Addr (10, 2, k + 1, 2).c_str ()), k + 1);
      Routing (server)->AddNetworkRouteTo (bssNet, m24, Ipv4Address (Addr (10, 3, k + 1, 2).c_str ()), k + 1);
    }

  Config::ConnectWithoutContext ("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/TxQueue/Drop",
                                 MakeCallback (&QueueDrop));
  Config::Connect ("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy/PromiscSnifferTx", MakeCallback (&SniffTx));
  Config::Connect ("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy/PromiscSnifferRx", MakeCallback (&SniffRx));
  Config::Connect ("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/RemoteStationManager/MacTxDataFailed",
                   MakeCallback (&TxDataFailed));
  Config::Connect ("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/RemoteStationManager/MacTxFinalDataFailed",
                   MakeCallback (&TxFinalDataFailed));
  Config::Connect ("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Mac/$ns3::NqstaWifiMac/Assoc", MakeCallback (&Assoc));
  g_extraJson = &WifiJson;

  g_clientAddress = Ipv4Address ("10.3.1.1");
  Simulator::Schedule (Seconds (g_wopt.start), &CheckAssociated);
  InstallFlow (Ipv4Address ("10.1.1.2"), Seconds (g_wopt.start));
  return RunAndReport ();
}
