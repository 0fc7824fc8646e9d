"""The engine: a variant compiled into tables, and the state machine that plays a hand on them.

Modules, bottom to top (each imports only modules below it; see
``docs/architecture.md`` for what each owns and where a new rule goes):

* :mod:`~heartslib.engine.tables` – card indices, interned plays, phases as constants;
* :mod:`~heartslib.engine.values`, :mod:`~heartslib.engine.fastpath`,
  :mod:`~heartslib.engine.checks` – what fields say about cards and passes,
  the fast paths' allow-lists, judging a variant's combinations of fields;
* :mod:`~heartslib.engine.rules` – :class:`~heartslib.engine.rules.Rules`,
  the compiled tables (``Variant.rules``);
* :mod:`~heartslib.engine.state` – a hand's state, declared once;
* :mod:`~heartslib.engine.args` – checks of the arguments programs pass;
* :mod:`~heartslib.engine.legality` – may this seat do this now, and why not;
* :mod:`~heartslib.engine.finishing` – facts from cards, the hand-off to scoring;
* :mod:`~heartslib.engine.tricks` – the first lead, playing a card, resolving a
  trick, the kitty, cancellation and roll-overs;
* :mod:`~heartslib.engine.dealing` – the shuffle, the deal, the exchange of passes;
* :mod:`~heartslib.engine.machine` – who acts, legal actions, applying one;
* :mod:`~heartslib.engine.playout` – random playouts and the fast loop;
* :mod:`~heartslib.engine.choices` – a seat's legal passes as a lazy sequence.

:class:`heartslib.Round` is the public facade over a state; the match layer
is :mod:`heartslib.match`.
"""
