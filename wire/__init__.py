"""The wire layer: library values <-> ``cpsolver.v1`` protobuf messages, and library exceptions
<-> ``google.rpc.Status``, in one place that the gRPC service (``cpsolver.server``) and the
typed client (``cpsolver.client.remote``) both import and neither owns.

One module per concern: :mod:`.cards` (cards and suits), :mod:`.rules` (rule-set messages of
every game), :mod:`.chinese_poker`, :mod:`.chlust` and :mod:`.three_leaves` (each game's
messages, both directions), :mod:`.status` (errors). Codecs convert only: every rule fact
(royalties, legality, rankings) is the library's, which they call or read. The library never
imports this package, and neither does the in-process client: protobuf is needed only to talk
to a server.
"""
