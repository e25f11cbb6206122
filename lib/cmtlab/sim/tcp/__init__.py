"""TCP endpoints with ns-3.44's ``TcpSocketBase`` semantics: one file per concern.

==================  ======================================================================
module              concern
==================  ======================================================================
``sender.py``       :class:`TcpSender` — the state machine: sending, ACK processing, fast
                    retransmit and recovery, timeouts (asks the mechanisms, acts on their
                    typed decisions)
``base.py``         the sender's attributes, declared once (root of the class chain
                    ``SenderBase -> BulkSource -> RttEstimator -> Scoreboard -> UndoApi
                    -> TcpSender``, one concern per file)
``scoreboard.py``   SACKed/lost/retransmitted flags, RFC 6675 ``pipe`` and ``NextSeg``
``rto.py``          RFC 6298 RTT estimator and retransmission timer
``undo.py``         snapshot / undo API of the reordering responses
``source.py``       the data source (bulk application; an MPTCP subflow overrides it)
``receiver.py``     :class:`TcpReceiver` — cumulative/delayed ACKs, SACK, D-SACK, timestamps
``state.py``        congestion states and the :class:`CongestionState` record
``decisions.py``    the mechanisms' typed answers (enums)
``traces.py``       the optional traces of a run (cwnd, packets, ACKs, duplicate-ACK runs, events,
                    RFC 5236 reorder density, rate) as tidy DataFrames
==================  ======================================================================

Units: sequence numbers are segment indices, windows in bytes, times in integer nanoseconds.
"""

from .decisions import FastRetransmitDecision, OutOfOrderAck, TimeoutDecision, UndoMode
from .receiver import TcpReceiver
from .flags import HIST_RETX, LOST, RETRANS, SACKED
from .sender import TcpSender
from .state import DISORDER, LOSS, OPEN, RECOVERY, STATE_NAMES, CongestionState

__all__ = ["TcpSender", "TcpReceiver", "CongestionState", "OPEN", "DISORDER", "RECOVERY", "LOSS", "STATE_NAMES",
           "SACKED", "LOST", "RETRANS", "HIST_RETX", "FastRetransmitDecision", "TimeoutDecision", "UndoMode",
           "OutOfOrderAck"]
