"""TCP endpoints: the sender (one subflow) and the receiver, with ns-3.44's ``TcpSocketBase`` semantics."""

from .decisions import FastRetransmitDecision, OutOfOrderAck, TimeoutDecision, UndoMode
from .sender import (DISORDER, HIST_RETX, LOSS, LOST, OPEN, RECOVERY, RETRANS, SACKED, STATE_NAMES,
                     CongestionState, TcpReceiver, TcpSender)

__all__ = ["TcpSender", "TcpReceiver", "CongestionState", "OPEN", "DISORDER", "RECOVERY", "LOSS", "STATE_NAMES",
           "SACKED", "LOST", "RETRANS", "HIST_RETX", "FastRetransmitDecision", "TimeoutDecision", "UndoMode",
           "OutOfOrderAck"]
