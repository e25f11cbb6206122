"""C++ glue compiled at run time by cppyy (``cppyy.cppdef``): the Fig. 5 topology of Song et al.

Everything that runs per packet is C++ (no Python callback is ever invoked during a
simulation), so a run costs what plain ns-3 costs.  The Python side (:mod:`cmtlab.ns3.engine`)
fills a :cpp:struct:`cmtlab_ns3::Config`, calls :cpp:func:`cmtlab_ns3::RunTransfer` and reads
back a :cpp:struct:`cmtlab_ns3::Result`.

What the code builds (per run, fresh nodes; ``Simulator::Destroy`` at the end):

* Two nodes, ``A`` (the data sender) and ``B`` (the receiver), joined by ``n``
  ``PointToPointNetDevice`` pairs built by hand (no ``PointToPointHelper``, hence no
  ``NetDeviceQueueInterface`` and no flow control; no ``Ipv4AddressHelper``, hence no root
  queue disc installed by the traffic-control layer).  Each device transmits from a
  ``DropTailQueue<Packet>`` of ``queue_packets`` packets; a full queue drops the arriving
  packet (drop-tail).  Link ``i`` has addresses ``10.1.(i+1).1`` (A) and ``10.1.(i+1).2`` (B).
* With ``ack_path="ideal"``: one more point-to-point link ``10.2.0.0/24`` of 1 Tbit/s and zero
  delay, used only in the receiver→sender direction (queue 1e6 packets, never full).
* With the tunnel (Song Fig. 5): a ``VirtualNetDevice`` on each node owning the address of
  the TCP connection (``10.9.0.1`` on A, ``10.9.0.2`` on B).  The VND's send callback wraps
  each IP packet in a UDP datagram and sends it from the UDP socket of the link chosen
  round-robin (A: all links; B: per ``ack_path``); the peer's UDP socket hands the inner IP
  packet to its VND (``VirtualNetDevice::Receive``), i.e. to its IP stack.  SYN segments
  and the sender's pure ACKs (handshake) go over the first link of the list without
  advancing the round-robin pointer, so data segment ``k`` (0-based) leaves on link
  ``k mod n`` and the receiver's ACK ``j`` on link ``j mod n`` (round_robin).
* A bulk sender on a TcpSocketBase subclass (:cpp:class:`SenderSocket`) that counts RTO
  expiries and, when the initial window is not a whole number of segments, sets the
  congestion window in bytes before the first data segment; a sink that reads everything
  and stops the simulator when the last byte has arrived in order.
* Traces (all C++): TCP ``Tx`` (data segments, retransmissions = segments not above the
  highest byte sent so far), ``CongState`` (entries into ``CA_RECOVERY``),
  receiver IP ``LocalDeliver`` (TCP segments whose bytes the receiver already held = spurious
  retransmissions that arrived), device ``PhyTxBegin`` (packets and wire bytes per link and
  direction; the first data segment's start on the wire starts the completion clock),
  ``MacTxDrop`` (queue drops), ``PhyRxDrop`` (loss-model drops), and, when asked,
  ``CongestionWindow`` / ``SlowStartThreshold`` and a per-data-segment send log.
"""

GLUE_CPP = r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/virtual-net-device-module.h"
#include "ns3/traffic-control-module.h"
#include <map>
#include <memory>
#include <vector>
#include <string>
#include <sstream>

namespace cmtlab_ns3 {
using namespace ns3;

struct Config {
    std::vector<double> bandwidths_bps;      // per link
    std::vector<double> one_way_delays_s;    // per link, forward = backward delay
    std::vector<int> loss_unit;              // 0 none, 1 packet, 2 bit (RateErrorModel unit)
    std::vector<double> loss_rate;
    bool tunnel = true;
    int ack_mode = 0;                        // 0 round robin, 1 single link (ack_link), 2 ideal path
    int ack_link = 0;
    double transfer_bytes = 0;               // double: exact for < 2^53
    uint32_t segment_bytes = 536;
    uint32_t initial_cwnd_segments = 1;      // ns-3 InitialCwnd (segments)
    uint32_t initial_window_bytes = 536;     // exact initial cwnd in bytes
    uint32_t ssthresh_bytes = 65535;
    uint32_t m_ack = 2;
    uint32_t queue_packets = 100;
    uint32_t link_mtu = 1500;
    uint32_t vnd_mtu = 1472;
    bool sack = false;
    bool limited_transmit = false;
    bool timestamps = false;
    int recovery = 0;                        // 0 TcpClassicRecovery, 1 TcpPrrRecovery
    int congestion = 0;                      // 0 TcpNewReno, 1 TcpCubic (HyStart off)
    double min_rto_s = 1.0;
    double initial_rto_s = 1.0;
    double clock_granularity_s = 0.001;
    double delayed_ack_timeout_s = 0.2;
    uint32_t dupack_threshold = 3;
    uint32_t send_buffer_bytes = 131072;
    uint32_t receive_buffer_bytes = 131072;
    uint32_t rng_seed = 1;
    uint64_t rng_run = 1;
    double max_sim_time_s = 36000.0;
    bool trace = false;
};

struct Result {
    bool completed = false;
    double first_data_s = -1;                // first data segment starts onto its link (PhyTxBegin)
    double first_data_tcp_s = -1;            // first data segment handed by TCP to IP (Tx trace)
    double done_s = -1;
    double sim_end_s = 0;
    double connected_s = -1;
    double rx_bytes = 0;
    uint64_t data_segments_sent = 0;
    uint64_t retransmissions = 0;
    uint64_t fast_retransmits = 0;
    uint64_t timeouts = 0;
    uint64_t spurious_retransmissions = 0;
    uint64_t data_segments_received = 0;
    uint64_t loss_drops = 0;
    uint64_t queue_drops_data = 0;
    uint64_t queue_drops_ack = 0;
    uint64_t events = 0;
    std::vector<uint64_t> link_data_packets;  // A -> B, every packet on the wire
    std::vector<uint64_t> link_ack_packets;   // B -> A (last entry: ideal path, if any)
    std::vector<uint64_t> link_data_bytes;
    std::vector<uint32_t> link_max_wire_bytes;
    std::vector<uint32_t> link_min_wire_bytes;
    std::string root_queue_discs;            // sanity: must stay empty
    // traces (trace=true)
    std::vector<double> cwnd_t; std::vector<uint32_t> cwnd_v;
    std::vector<double> ssth_t; std::vector<uint32_t> ssth_v;
    std::vector<double> state_t; std::vector<int> state_v;
    std::vector<double> tx_t; std::vector<double> tx_seq; std::vector<uint32_t> tx_len;
    std::vector<int> tx_retx; std::vector<int> tx_link;
};

struct Ctx;

class SenderSocket : public TcpSocketBase {
  public:
    uint64_t* rtoCounter = nullptr;
    uint32_t iwBytes = 0;
    bool iwPending = false;
    void NoPacing() {  // TcpSocketState::EnablePacing/PaceInitialWindow default to false; make sure
        m_tcb->m_pacing = false;
        m_tcb->m_paceInitialWindow = false;
    }
  protected:
    void ReTxTimeout() override {
        // Count the expiries that TcpSocketBase::ReTxTimeout acts on for data.
        if (rtoCounter && m_state != CLOSED && m_state != TIME_WAIT && m_state != SYN_SENT &&
            m_state != LISTEN && m_txBuffer->Size() > 0 && m_dataRetrCount > 0) {
            ++(*rtoCounter);
        }
        TcpSocketBase::ReTxTimeout();
    }
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override {
        if (iwPending) {
            iwPending = false;
            m_tcb->m_cWnd = iwBytes;
            m_tcb->m_cWndInfl = iwBytes;
        }
        return TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
    }
};

struct DevCounter {
    Ctx* ctx = nullptr;
    int link = 0;
    bool dataDir = true;
    void OnPhyTxBegin(Ptr<const Packet> p);
    void OnMacTxDrop(Ptr<const Packet> p);
    void OnPhyRxDrop(Ptr<const Packet> p);
};

struct Tunnel {
    Ctx* ctx = nullptr;
    bool isSender = false;
    Ptr<VirtualNetDevice> vnd;
    std::vector<Ptr<Socket>> socks;       // index = link (n = ideal path)
    std::vector<int> rr;                  // links used for sending, round-robin order
    size_t next = 0;
    bool Send(Ptr<Packet> packet, const Address& src, const Address& dst, uint16_t proto);
    void Recv(Ptr<Socket> s);
};

struct Ctx {
    Config cfg;
    Result* res = nullptr;
    uint64_t total = 0;
    uint64_t written = 0;
    uint64_t rx = 0;
    uint64_t highestSent = 0;             // byte offset (from first data byte) above which nothing was sent
    bool anyData = false;
    bool done = false;
    Ptr<SenderSocket> sender;
    std::vector<Ptr<RateErrorModel>> errorModels;
    std::vector<std::unique_ptr<DevCounter>> counters;
    std::vector<std::unique_ptr<Tunnel>> tunnels;
    // receiver scoreboard for spurious retransmissions
    uint64_t cum = 0;
    std::map<uint64_t, uint64_t> ooo;
    int lastTxIndex = -1;

    static uint64_t Offset(SequenceNumber32 s) { return (uint64_t)(uint32_t)(s.GetValue() - 1u); }

    void Fill(Ptr<Socket> s, uint32_t) {
        const uint32_t seg = cfg.segment_bytes;
        while (written < total) {
            uint32_t avail = s->GetTxAvailable();
            uint64_t remaining = total - written;
            uint32_t chunk;
            if (remaining <= avail) chunk = (uint32_t)remaining;
            else chunk = (avail / seg) * seg;
            if (chunk == 0) break;
            if (s->Send(Create<Packet>(chunk)) < 0) break;
            written += chunk;
        }
    }
    void OnConnected(Ptr<Socket> s) {
        res->connected_s = Simulator::Now().GetSeconds();
        for (auto& em : errorModels) em->Enable();
        Fill(s, 0);
    }
    void OnConnectFailed(Ptr<Socket>) {}
    void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>) {
        uint32_t len = p->GetSize();
        if (len == 0) return;
        double now = Simulator::Now().GetSeconds();
        if (!anyData) { anyData = true; res->first_data_tcp_s = now; }
        uint64_t start = Offset(h.GetSequenceNumber());
        uint64_t end = start + len;
        bool retx = end <= highestSent;
        if (end > highestSent) highestSent = end;
        if (done) return;
        ++res->data_segments_sent;
        if (retx) ++res->retransmissions;
        if (cfg.trace) {
            res->tx_t.push_back(now); res->tx_seq.push_back((double)start);
            res->tx_len.push_back(len); res->tx_retx.push_back(retx ? 1 : 0);
            res->tx_link.push_back(cfg.tunnel ? -1 : 0);
            lastTxIndex = (int)res->tx_t.size() - 1;
        }
    }
    void OnCongState(TcpSocketState::TcpCongState_t oldV, TcpSocketState::TcpCongState_t newV) {
        if (done) return;
        if (newV == TcpSocketState::CA_RECOVERY && oldV != TcpSocketState::CA_RECOVERY) ++res->fast_retransmits;
        if (cfg.trace) { res->state_t.push_back(Simulator::Now().GetSeconds()); res->state_v.push_back((int)newV); }
    }
    void OnCwnd(uint32_t, uint32_t v) {
        res->cwnd_t.push_back(Simulator::Now().GetSeconds()); res->cwnd_v.push_back(v);
    }
    void OnSsth(uint32_t, uint32_t v) {
        res->ssth_t.push_back(Simulator::Now().GetSeconds()); res->ssth_v.push_back(v);
    }
    bool Covered(uint64_t s, uint64_t e) const {
        if (e <= cum) return true;
        if (s < cum) s = cum;
        auto it = ooo.upper_bound(s);
        if (it == ooo.begin()) return false;
        --it;
        return it->first <= s && it->second >= e;
    }
    void Insert(uint64_t s, uint64_t e) {
        if (e <= cum) return;
        if (s < cum) s = cum;
        auto it = ooo.upper_bound(s);
        if (it != ooo.begin()) {
            auto prev = std::prev(it);
            if (prev->second >= s) { s = prev->first; if (prev->second > e) e = prev->second; ooo.erase(prev); }
        }
        it = ooo.lower_bound(s);
        while (it != ooo.end() && it->first <= e) {
            if (it->second > e) e = it->second;
            it = ooo.erase(it);
        }
        if (s <= cum) { cum = e; }
        else ooo[s] = e;
        // absorb intervals now contiguous with cum
        it = ooo.begin();
        while (it != ooo.end() && it->first <= cum) {
            if (it->second > cum) cum = it->second;
            it = ooo.erase(it);
        }
    }
    void OnLocalDeliver(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t) {
        // Every TCP segment that reaches the receiver's IP layer, including old duplicates that
        // TcpSocketBase discards before its own Rx trace (IsValidTcpSegment/OutOfRange).
        if (done || ip.GetProtocol() != 6) return;
        TcpHeader h;
        uint32_t hl = p->PeekHeader(h);
        if (h.GetFlags() & TcpHeader::SYN) return;
        uint32_t len = p->GetSize() - hl;
        if (len == 0) return;
        uint64_t s = Offset(h.GetSequenceNumber());
        uint64_t e = s + len;
        ++res->data_segments_received;
        if (Covered(s, e)) ++res->spurious_retransmissions;
        Insert(s, e);
    }
    bool OnAcceptRequest(Ptr<Socket>, const Address&) { return true; }
    void OnAccept(Ptr<Socket> s, const Address&) {
        s->SetRecvCallback(MakeCallback(&Ctx::OnRecv, this));
    }
    void OnRecv(Ptr<Socket> s) {
        Ptr<Packet> p;
        while ((p = s->Recv()) && p->GetSize() > 0) {
            rx += p->GetSize();
        }
        if (!done && rx >= total) {
            done = true;
            res->done_s = Simulator::Now().GetSeconds();
            res->completed = true;
            Simulator::Stop();
        }
    }
};

void DevCounter::OnPhyTxBegin(Ptr<const Packet> p) {
    if (ctx->done) return;
    uint32_t sz = p->GetSize();
    Result* r = ctx->res;
    if (dataDir) {
        if (r->first_data_s < 0) {
            // Is this the first data segment on the wire?  (PPP | IP [| UDP | IP] | TCP | payload)
            Ptr<Packet> c = p->Copy();
            PppHeader ppp; c->RemoveHeader(ppp);
            Ipv4Header ip; c->RemoveHeader(ip);
            if (ip.GetProtocol() == 17) { UdpHeader udp; c->RemoveHeader(udp); c->RemoveHeader(ip); }
            if (ip.GetProtocol() == 6) {
                TcpHeader tcp; c->RemoveHeader(tcp);
                if (c->GetSize() > 0) r->first_data_s = Simulator::Now().GetSeconds();
            }
        }
        r->link_data_packets[link] += 1;
        r->link_data_bytes[link] += sz;
        if (sz > r->link_max_wire_bytes[link]) r->link_max_wire_bytes[link] = sz;
        if (sz < r->link_min_wire_bytes[link]) r->link_min_wire_bytes[link] = sz;
    } else {
        r->link_ack_packets[link] += 1;
    }
}
void DevCounter::OnMacTxDrop(Ptr<const Packet>) {
    if (ctx->done) return;
    if (dataDir) ++ctx->res->queue_drops_data; else ++ctx->res->queue_drops_ack;
}
void DevCounter::OnPhyRxDrop(Ptr<const Packet>) {
    if (ctx->done) return;
    ++ctx->res->loss_drops;
}

bool Tunnel::Send(Ptr<Packet> packet, const Address&, const Address&, uint16_t) {
    bool control = false;
    Ptr<Packet> copy = packet->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() == 6) {
        TcpHeader tcp;
        copy->RemoveHeader(tcp);
        control = (tcp.GetFlags() & TcpHeader::SYN) || (isSender && copy->GetSize() == 0);
    }
    int link;
    if (control) link = rr[0];
    else { link = rr[next]; next = (next + 1) % rr.size(); }
    if (isSender && !control && ctx->cfg.trace && ctx->lastTxIndex >= 0) {
        ctx->res->tx_link[ctx->lastTxIndex] = link;
        ctx->lastTxIndex = -1;
    }
    socks[link]->Send(packet);
    return true;
}

void Tunnel::Recv(Ptr<Socket> s) {
    Ptr<Packet> p;
    while ((p = s->Recv())) {
        vnd->Receive(p, 0x0800, vnd->GetAddress(), vnd->GetAddress(), NetDevice::PACKET_HOST);
    }
}

static Ipv4Address Addr(int a, int b, int c, int d) {
    std::ostringstream os; os << a << "." << b << "." << c << "." << d;
    return Ipv4Address(os.str().c_str());
}

static uint32_t AddIf(Ptr<Ipv4> ipv4, Ptr<NetDevice> dev, Ipv4Address a) {
    uint32_t idx = ipv4->AddInterface(dev);
    ipv4->AddAddress(idx, Ipv4InterfaceAddress(a, Ipv4Mask("255.255.255.0")));
    ipv4->SetMetric(idx, 1);
    ipv4->SetUp(idx);
    return idx;
}

static void ApplyTcpAttributes(Ptr<TcpSocketBase> s, const Config& c) {
    s->SetAttribute("SegmentSize", UintegerValue(c.segment_bytes));
    s->SetAttribute("InitialCwnd", UintegerValue(c.initial_cwnd_segments));
    s->SetAttribute("InitialSlowStartThreshold", UintegerValue(c.ssthresh_bytes));
    s->SetAttribute("SndBufSize", UintegerValue(c.send_buffer_bytes));
    s->SetAttribute("RcvBufSize", UintegerValue(c.receive_buffer_bytes));
    s->SetAttribute("DelAckCount", UintegerValue(c.m_ack));
    s->SetAttribute("DelAckTimeout", TimeValue(Seconds(c.delayed_ack_timeout_s)));
    s->SetAttribute("ConnTimeout", TimeValue(Seconds(c.initial_rto_s)));
    s->SetAttribute("DataRetries", UintegerValue(1000000000u));
    s->SetAttribute("ConnCount", UintegerValue(1000000000u));
    s->SetAttribute("TcpNoDelay", BooleanValue(true));
    s->SetAttribute("Sack", BooleanValue(c.sack));
    s->SetAttribute("LimitedTransmit", BooleanValue(c.limited_transmit));
    s->SetAttribute("Timestamp", BooleanValue(c.timestamps));
    s->SetAttribute("WindowScaling", BooleanValue(true));
    s->SetAttribute("MinRto", TimeValue(Seconds(c.min_rto_s)));
    s->SetAttribute("ClockGranularity", TimeValue(Seconds(c.clock_granularity_s)));
    s->SetAttribute("ReTxThreshold", UintegerValue(c.dupack_threshold));
    s->SetAttribute("UseEcn", EnumValue(TcpSocketState::Off));
    Ptr<RttMeanDeviation> rtt = CreateObject<RttMeanDeviation>();
    rtt->SetAttribute("InitialEstimation", TimeValue(Seconds(c.initial_rto_s)));
    s->SetRtt(rtt);
}

static void AttachCounters(Ctx& ctx, Ptr<PointToPointNetDevice> dev, int link, bool dataDir, bool rxDrops) {
    ctx.counters.emplace_back(new DevCounter());
    DevCounter* dc = ctx.counters.back().get();
    dc->ctx = &ctx; dc->link = link; dc->dataDir = dataDir;
    dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&DevCounter::OnPhyTxBegin, dc));
    dev->TraceConnectWithoutContext("MacTxDrop", MakeCallback(&DevCounter::OnMacTxDrop, dc));
    if (rxDrops) dev->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&DevCounter::OnPhyRxDrop, dc));
}

static Ptr<PointToPointNetDevice> MakeDev(Ptr<Node> node, double rate_bps, uint32_t queue, uint32_t mtu) {
    Ptr<PointToPointNetDevice> d = CreateObject<PointToPointNetDevice>();
    d->SetAddress(Mac48Address::Allocate());
    d->SetDataRate(DataRate((uint64_t)(rate_bps + 0.5)));
    d->SetMtu((uint16_t)mtu);
    Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
    q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, queue));
    d->SetQueue(q);
    node->AddDevice(d);
    return d;
}

Result RunTransfer(const Config& cfg) {
    Result res;
    Ctx ctx;
    ctx.cfg = cfg;
    ctx.res = &res;
    ctx.total = (uint64_t)cfg.transfer_bytes;
    const int n = (int)cfg.bandwidths_bps.size();
    const bool ideal = cfg.ack_mode == 2;
    res.link_data_packets.assign(n, 0);
    res.link_ack_packets.assign(n + (ideal ? 1 : 0), 0);
    res.link_data_bytes.assign(n, 0);
    res.link_max_wire_bytes.assign(n, 0);
    res.link_min_wire_bytes.assign(n, 0xffffffffu);

    RngSeedManager::SetSeed(cfg.rng_seed);
    RngSeedManager::SetRun(cfg.rng_run);

    Ptr<Node> A = CreateObject<Node>();
    Ptr<Node> B = CreateObject<Node>();
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(A);
    stack.Install(B);
    for (Ptr<Node> node : {A, B}) {
        Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
        tcp->SetAttribute("SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
        tcp->SetAttribute("RecoveryType", TypeIdValue(cfg.recovery == 1 ? TcpPrrRecovery::GetTypeId()
                                                                         : TcpClassicRecovery::GetTypeId()));
        tcp->SetAttribute("RttEstimatorType", TypeIdValue(RttMeanDeviation::GetTypeId()));
    }
    Ptr<Ipv4> ipA = A->GetObject<Ipv4>();
    Ptr<Ipv4> ipB = B->GetObject<Ipv4>();

    std::vector<Ptr<PointToPointNetDevice>> devA, devB;
    std::vector<uint32_t> ifA, ifB;
    for (int i = 0; i < n; ++i) {
        Ptr<PointToPointNetDevice> a = MakeDev(A, cfg.bandwidths_bps[i], cfg.queue_packets, cfg.link_mtu);
        Ptr<PointToPointNetDevice> b = MakeDev(B, cfg.bandwidths_bps[i], cfg.queue_packets, cfg.link_mtu);
        Ptr<PointToPointChannel> ch = CreateObject<PointToPointChannel>();
        ch->SetAttribute("Delay", TimeValue(Seconds(cfg.one_way_delays_s[i])));
        a->Attach(ch); b->Attach(ch);
        if (cfg.loss_unit[i] != 0) {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(cfg.loss_unit[i] == 1 ? RateErrorModel::ERROR_UNIT_PACKET : RateErrorModel::ERROR_UNIT_BIT);
            em->SetRate(cfg.loss_rate[i]);
            em->AssignStreams(i);
            em->Disable();                      // enabled once the connection is established
            b->SetReceiveErrorModel(em);        // data direction only
            ctx.errorModels.push_back(em);
        }
        AttachCounters(ctx, a, i, true, false);
        AttachCounters(ctx, b, i, false, true);
        devA.push_back(a); devB.push_back(b);
        ifA.push_back(AddIf(ipA, a, Addr(10, 1, i + 1, 1)));
        ifB.push_back(AddIf(ipB, b, Addr(10, 1, i + 1, 2)));
    }
    Ipv4Address idealA("10.2.0.1"), idealB("10.2.0.2");
    uint32_t idealIfB = 0;
    Ptr<PointToPointNetDevice> idA, idB;
    if (ideal) {
        idA = MakeDev(A, 1e12, 1000000, cfg.link_mtu);
        idB = MakeDev(B, 1e12, 1000000, cfg.link_mtu);
        Ptr<PointToPointChannel> ch = CreateObject<PointToPointChannel>();
        ch->SetAttribute("Delay", TimeValue(Seconds(0)));
        idA->Attach(ch); idB->Attach(ch);
        AttachCounters(ctx, idB, n, false, false);
        AddIf(ipA, idA, idealA);
        idealIfB = AddIf(ipB, idB, idealB);
    }

    const uint16_t tunnelPort = 4789;
    const uint16_t tcpPort = 5001;
    Ipv4Address dstAddr;
    if (cfg.tunnel) {
        Ipv4Address vA("10.9.0.1"), vB("10.9.0.2");
        for (int side = 0; side < 2; ++side) {
            Ptr<Node> node = side == 0 ? A : B;
            Ptr<Ipv4> ip = side == 0 ? ipA : ipB;
            ctx.tunnels.emplace_back(new Tunnel());
            Tunnel* t = ctx.tunnels.back().get();
            t->ctx = &ctx;
            t->isSender = side == 0;
            t->vnd = CreateObject<VirtualNetDevice>();
            t->vnd->SetAddress(Mac48Address::Allocate());
            t->vnd->SetMtu((uint16_t)cfg.vnd_mtu);
            t->vnd->SetNeedsArp(false);
            t->vnd->SetSendCallback(MakeCallback(&Tunnel::Send, t));
            node->AddDevice(t->vnd);
            AddIf(ip, t->vnd, side == 0 ? vA : vB);
            int nsock = n + (ideal ? 1 : 0);
            for (int i = 0; i < nsock; ++i) {
                Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
                Ipv4Address local, peer;
                Ptr<NetDevice> dev;
                if (i < n) {
                    local = Addr(10, 1, i + 1, side == 0 ? 1 : 2);
                    peer = Addr(10, 1, i + 1, side == 0 ? 2 : 1);
                    dev = side == 0 ? devA[i] : devB[i];
                } else {
                    local = side == 0 ? idealA : idealB;
                    peer = side == 0 ? idealB : idealA;
                    dev = side == 0 ? idA : idB;
                }
                s->BindToNetDevice(dev);
                s->Bind(InetSocketAddress(local, tunnelPort));
                s->Connect(InetSocketAddress(peer, tunnelPort));
                s->SetRecvCallback(MakeCallback(&Tunnel::Recv, t));
                t->socks.push_back(s);
            }
            if (side == 0) { for (int i = 0; i < n; ++i) t->rr.push_back(i); }
            else if (cfg.ack_mode == 0) { for (int i = 0; i < n; ++i) t->rr.push_back(i); }
            else if (cfg.ack_mode == 1) { t->rr.push_back(cfg.ack_link); }
            else { t->rr.push_back(n); }
        }
        dstAddr = vB;
    } else {
        dstAddr = Addr(10, 1, 1, 2);
        if (ideal) {
            Ipv4StaticRoutingHelper rh;
            Ptr<Ipv4StaticRouting> rt = rh.GetStaticRouting(ipB);
            rt->AddHostRouteTo(Addr(10, 1, 1, 1), idealA, idealIfB);
        }
    }

    // sanity: nobody installed a queue disc on our devices
    {
        std::ostringstream os;
        for (Ptr<Node> node : {A, B}) {
            Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
            for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
                Ptr<NetDevice> dev = node->GetDevice(d);
                if (tc && tc->GetRootQueueDiscOnDevice(dev)) os << node->GetId() << ":" << d << " ";
            }
        }
        res.root_queue_discs = os.str();
    }

    // receiver
    B->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("LocalDeliver", MakeCallback(&Ctx::OnLocalDeliver, &ctx));
    Ptr<TcpL4Protocol> tcpB = B->GetObject<TcpL4Protocol>();
    Ptr<TcpSocketBase> listen = DynamicCast<TcpSocketBase>(tcpB->CreateSocket());
    ApplyTcpAttributes(listen, cfg);
    listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), tcpPort));
    listen->Listen();
    listen->SetAcceptCallback(MakeCallback(&Ctx::OnAcceptRequest, &ctx), MakeCallback(&Ctx::OnAccept, &ctx));

    // sender (a TcpSocketBase subclass, set up as TcpL4Protocol::CreateSocket does)
    Ptr<TcpL4Protocol> tcpA = A->GetObject<TcpL4Protocol>();
    Ptr<SenderSocket> snd = CreateObject<SenderSocket>();
    snd->SetNode(A);
    snd->SetTcp(tcpA);
    if (cfg.congestion == 1) {
        Ptr<TcpCubic> cubic = CreateObject<TcpCubic>();
        cubic->SetAttribute("HyStart", BooleanValue(false));  // cmtlab.sim's CUBIC has no HyStart
        snd->SetCongestionControlAlgorithm(cubic);
    } else {
        snd->SetCongestionControlAlgorithm(CreateObject<TcpNewReno>());
    }
    if (cfg.recovery == 1) snd->SetRecoveryAlgorithm(CreateObject<TcpPrrRecovery>());
    else snd->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
    ApplyTcpAttributes(snd, cfg);
    snd->NoPacing();
    snd->rtoCounter = &res.timeouts;
    if (cfg.initial_window_bytes != cfg.initial_cwnd_segments * cfg.segment_bytes) {
        snd->iwBytes = cfg.initial_window_bytes;
        snd->iwPending = true;
    }
    ctx.sender = snd;
    snd->TraceConnectWithoutContext("Tx", MakeCallback(&Ctx::OnTx, &ctx));
    snd->TraceConnectWithoutContext("CongState", MakeCallback(&Ctx::OnCongState, &ctx));
    if (cfg.trace) {
        snd->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&Ctx::OnCwnd, &ctx));
        snd->TraceConnectWithoutContext("SlowStartThreshold", MakeCallback(&Ctx::OnSsth, &ctx));
    }
    snd->SetConnectCallback(MakeCallback(&Ctx::OnConnected, &ctx), MakeCallback(&Ctx::OnConnectFailed, &ctx));
    snd->SetSendCallback(MakeCallback(&Ctx::Fill, &ctx));
    snd->Bind();
    snd->Connect(InetSocketAddress(dstAddr, tcpPort));
    ctx.Fill(snd, 0);   // fill the send buffer in SYN_SENT: the first window leaves with the handshake ACK

    Simulator::Stop(Seconds(cfg.max_sim_time_s));
    Simulator::Run();
    res.sim_end_s = Simulator::Now().GetSeconds();
    res.rx_bytes = (double)ctx.rx;
    res.events = Simulator::GetEventCount();
    ctx.sender = nullptr;
    Simulator::Destroy();
    return res;
}

}  // namespace cmtlab_ns3
"""
