"""C++ glue (compiled at run time by cppyy) for one 802.11g link in ns-3.44: an AP and one station.

See :mod:`cmtlab.ns3.wifi` for what is built and why; everything per packet runs in C++.
"""

WIFI_GLUE_CPP = r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/wifi-module.h"
#include "ns3/mobility-module.h"
#include "ns3/applications-module.h"
#include "ns3/traffic-control-module.h"
#include <map>
#include <string>
#include <vector>

namespace cmtlab_wifi {
using namespace ns3;

struct WifiConfig {
    double distance_m = 10;
    uint32_t payload_bytes = 1400;       // UDP payload / TCP segment size
    bool tcp = false;                    // false: UDP saturation AP -> STA; true: one TCP bulk transfer
    double udp_offered_bps = 60e6;       // offered UDP load (above the channel's capacity)
    double transfer_bytes = 2e6;         // TCP transfer size
    double start_s = 1.0;                // traffic starts (after association)
    double duration_s = 2.0;             // UDP measurement window / TCP time limit
    bool preamble_detection = true;      // keep YansWifiPhyHelper's default ThresholdPreambleDetectionModel
    uint32_t rng_seed = 1;
    uint64_t rng_run = 1;
};

struct WifiResult {
    double throughput_bps = 0;
    double rx_bytes = 0;
    double first_rx_s = -1;
    double last_rx_s = -1;
    bool completed = false;
    std::string station_manager;
    std::string error_rate_model;
    std::string preamble_detection_model;
    std::string queue_disc;
    double slot_us = 0, sifs_us = 0, tx_power_dbm = 0, noise_figure_db = 0;
    uint32_t cw_min = 0, cw_max = 0, aifsn = 0;
    double rx_power_dbm = 0;
    double sniffer_signal_dbm = 0;       // MonitorSnifferRx at the station: signal and noise (dBm)
    double sniffer_noise_dbm = 0;
    std::map<uint64_t, uint64_t> data_rate_counts;   // PHY rate (bit/s) of frames >= 500 B sent by the AP
    uint64_t beacons = 0;                // beacon frames sent by the AP, their size (B), rate and duration (us)
    uint32_t beacon_bytes = 0;
    uint64_t beacon_rate_bps = 0;
    double beacon_duration_us = 0;
    uint64_t phy_tx_frames = 0;
    uint64_t phy_rx_drops = 0;
    uint64_t mac_tx_failed = 0;
    double duration_1464_54_us = 0;      // CalculateTxDuration(1464 B, ERP-OFDM 54 Mbit/s)
    double duration_14_24_us = 0;        // CalculateTxDuration(14 B, ERP-OFDM 24 Mbit/s)
};

class PhyHelperProbe : public YansWifiPhyHelper {
  public:
    std::string ErrorModelName() const { return m_errorRateModel.at(0).GetTypeId().GetName(); }
    std::string PreambleModelName() const {
        return m_preambleDetectionModel.at(0).IsTypeIdSet() ? m_preambleDetectionModel.at(0).GetTypeId().GetName()
                                                            : std::string("none");
    }
    void NoPreambleDetection() { m_preambleDetectionModel.at(0) = ObjectFactory(); }
};

struct WifiCtx {
    WifiResult* res;
    double target = 0;
};

static void OnRx(WifiCtx* c, Ptr<const Packet> p, const Address&) {
    double now = Simulator::Now().GetSeconds();
    if (c->res->first_rx_s < 0) c->res->first_rx_s = now;
    c->res->rx_bytes += p->GetSize();
    c->res->last_rx_s = now;
    if (c->target > 0 && c->res->rx_bytes >= c->target) {
        c->res->completed = true;
        Simulator::Stop();
    }
}

static void OnSnifferTx(WifiResult* r, Ptr<const Packet> p, uint16_t, WifiTxVector tx, MpduInfo, uint16_t) {
    r->phy_tx_frames++;
    if (p->GetSize() >= 500) r->data_rate_counts[tx.GetMode().GetDataRate(tx)]++;
    WifiMacHeader hdr;
    if (p->PeekHeader(hdr) && hdr.IsBeacon()) {
        r->beacons++;
        r->beacon_bytes = p->GetSize();
        r->beacon_rate_bps = tx.GetMode().GetDataRate(tx);
        r->beacon_duration_us = WifiPhy::CalculateTxDuration(p->GetSize(), tx, WIFI_PHY_BAND_2_4GHZ).GetNanoSeconds() / 1000.0;
    }
}

static void OnSnifferRx(WifiResult* r, Ptr<const Packet> p, uint16_t, WifiTxVector, MpduInfo, SignalNoiseDbm sn,
                        uint16_t) {
    if (p->GetSize() >= 500) { r->sniffer_signal_dbm = sn.signal; r->sniffer_noise_dbm = sn.noise; }
}

static void OnPhyRxDrop(WifiResult* r, Ptr<const Packet>, WifiPhyRxfailureReason) { r->phy_rx_drops++; }
static void OnMacTxFail(WifiResult* r, Mac48Address) { r->mac_tx_failed++; }

WifiResult RunWifi(const WifiConfig& cfg) {
    WifiResult res;
    RngSeedManager::SetSeed(cfg.rng_seed);
    RngSeedManager::SetRun(cfg.rng_run);

    NodeContainer nodes;
    nodes.Create(2);                      // 0: AP (sender), 1: station (receiver)
    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();   // ConstantSpeed + LogDistance
    PhyHelperProbe phy;
    phy.SetChannel(channel.Create());
    res.error_rate_model = phy.ErrorModelName();
    if (!cfg.preamble_detection) phy.NoPreambleDetection();
    res.preamble_detection_model = phy.PreambleModelName();
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211g);
    WifiMacHelper mac;
    Ssid ssid("cmtlab");
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid), "ActiveProbing", BooleanValue(false));
    NetDeviceContainer staDev = wifi.Install(phy, mac, nodes.Get(1));
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer apDev = wifi.Install(phy, mac, nodes.Get(0));
    wifi.AssignStreams(apDev, 100);
    wifi.AssignStreams(staDev, 200);

    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0.0, 0.0, 0.0));
    pos->Add(Vector(cfg.distance_m, 0.0, 0.0));
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(nodes);
    for (uint32_t i = 0; i < 2; ++i)
        nodes.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(NetDeviceContainer(apDev, staDev));

    Ptr<WifiNetDevice> ap = DynamicCast<WifiNetDevice>(apDev.Get(0));
    Ptr<WifiNetDevice> sta = DynamicCast<WifiNetDevice>(staDev.Get(0));
    res.station_manager = ap->GetRemoteStationManager()->GetInstanceTypeId().GetName();
    Ptr<TrafficControlLayer> tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice(ap);
    res.queue_disc = qd ? qd->GetInstanceTypeId().GetName() : std::string("none");

    WifiResult* r = &res;
    WifiCtx ctx{r, 0};
    ap->GetPhy()->TraceConnectWithoutContext("MonitorSnifferTx", MakeBoundCallback(&OnSnifferTx, r));
    sta->GetPhy()->TraceConnectWithoutContext("MonitorSnifferRx", MakeBoundCallback(&OnSnifferRx, r));
    sta->GetPhy()->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&OnPhyRxDrop, r));
    ap->GetRemoteStationManager()->TraceConnectWithoutContext("MacTxFinalDataFailed",
                                                              MakeBoundCallback(&OnMacTxFail, r));

    uint16_t port = 9;
    Address sinkAddr(InetSocketAddress(ifs.GetAddress(1), port));
    ApplicationContainer sinkApp, srcApp;
    if (cfg.tcp) {
        // TcpSocket::SegmentSize is set for this run only (restored below): BulkSend creates its
        // socket at start and ns-3 cannot change the segment size of a connected socket.
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(cfg.payload_bytes));
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        sinkApp = sink.Install(nodes.Get(1));
        BulkSendHelper src("ns3::TcpSocketFactory", sinkAddr);
        src.SetAttribute("MaxBytes", UintegerValue((uint64_t)cfg.transfer_bytes));
        src.SetAttribute("SendSize", UintegerValue(cfg.payload_bytes));
        srcApp = src.Install(nodes.Get(0));
        ctx.target = cfg.transfer_bytes;
    } else {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        sinkApp = sink.Install(nodes.Get(1));
        OnOffHelper src("ns3::UdpSocketFactory", sinkAddr);
        src.SetConstantRate(DataRate((uint64_t)cfg.udp_offered_bps), cfg.payload_bytes);
        srcApp = src.Install(nodes.Get(0));
    }
    DynamicCast<PacketSink>(sinkApp.Get(0))->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &ctx));
    sinkApp.Start(Seconds(0.0));
    srcApp.Start(Seconds(cfg.start_s));
    double stop = cfg.start_s + cfg.duration_s;
    srcApp.Stop(Seconds(stop));
    Simulator::Stop(Seconds(stop));
    Simulator::Run();

    Ptr<WifiPhy> aphy = ap->GetPhy();
    res.slot_us = aphy->GetSlot().GetMicroSeconds();
    res.sifs_us = aphy->GetSifs().GetMicroSeconds();
    res.tx_power_dbm = aphy->GetTxPowerStart();
    res.noise_figure_db = 0;  // read from the attribute defaults in Python
    Ptr<Txop> txop = ap->GetMac()->GetTxop();
    res.cw_min = txop->GetMinCw();
    res.cw_max = txop->GetMaxCw();
    res.aifsn = txop->GetAifsn();
    Ptr<MobilityModel> ma = nodes.Get(0)->GetObject<MobilityModel>();
    Ptr<MobilityModel> mb = nodes.Get(1)->GetObject<MobilityModel>();
    Ptr<LogDistancePropagationLossModel> ld = CreateObject<LogDistancePropagationLossModel>();
    res.rx_power_dbm = ld->CalcRxPower(res.tx_power_dbm, ma, mb);
    WifiTxVector v54(ErpOfdmPhy::GetErpOfdmRate54Mbps(), 0, WIFI_PREAMBLE_LONG, NanoSeconds(800), 1, 1, 0, 20, false);
    res.duration_1464_54_us = WifiPhy::CalculateTxDuration(1464, v54, WIFI_PHY_BAND_2_4GHZ).GetNanoSeconds() / 1000.0;
    WifiTxVector v24(ErpOfdmPhy::GetErpOfdmRate24Mbps(), 0, WIFI_PREAMBLE_LONG, NanoSeconds(800), 1, 1, 0, 20, false);
    res.duration_14_24_us = WifiPhy::CalculateTxDuration(14, v24, WIFI_PHY_BAND_2_4GHZ).GetNanoSeconds() / 1000.0;
    if (res.first_rx_s >= 0 && res.last_rx_s > res.first_rx_s) {
        if (cfg.tcp) {
            res.throughput_bps = res.rx_bytes * 8.0 / (res.last_rx_s - cfg.start_s);
        } else {
            res.throughput_bps = res.rx_bytes * 8.0 / (res.last_rx_s - res.first_rx_s);
        }
    }
    Simulator::Destroy();
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(536));   // ns-3's default
    return res;
}

// The ns-3 error model's chunk success rate and the IdealWifiManager's SNR thresholds, for checks.
double ChunkSuccessRate(const std::string& model, uint32_t rate_mbps, double snr_ratio, uint64_t nbits) {
    ObjectFactory f;
    f.SetTypeId(model);
    Ptr<ErrorRateModel> em = f.Create<ErrorRateModel>();
    WifiMode mode = ErpOfdmPhy::GetErpOfdmRate(rate_mbps * 1000000ULL);
    WifiTxVector v(mode, 0, WIFI_PREAMBLE_LONG, NanoSeconds(800), 1, 1, 0, 20, false);
    return em->GetChunkSuccessRate(mode, v, snr_ratio, nbits);
}

double SnrForBer(const std::string& model, uint32_t rate_mbps, double ber) {
    ObjectFactory f;
    f.SetTypeId(model);
    Ptr<ErrorRateModel> em = f.Create<ErrorRateModel>();
    WifiMode mode = ErpOfdmPhy::GetErpOfdmRate(rate_mbps * 1000000ULL);
    WifiTxVector v(mode, 0, WIFI_PREAMBLE_LONG, NanoSeconds(800), 1, 1, 0, 20, false);
    return em->CalculateSnr(v, ber);
}

}  // namespace cmtlab_wifi
"""
