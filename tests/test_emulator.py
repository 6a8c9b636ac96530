"""The emulated TTS table: objects, containers, zones, dice, UI, Wait, events, save state."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tts_builder.emulator import EmulatedTable, EmulatorError, LuaScriptError

D6_ROTATIONS = [(-90, 0, 0), (0, 0, 0), (0, 0, -90), (0, 0, 90), (0, 0, -180), (90, 0, 0)]


def transform(
    x: float = 0,
    y: float = 1,
    z: float = 0,
    *,
    rot_z: float = 0,
    scale: tuple[float, float, float] = (1, 1, 1),
) -> dict[str, float]:
    return {
        "posX": x,
        "posY": y,
        "posZ": z,
        "rotX": 0,
        "rotY": 180,
        "rotZ": rot_z,
        "scaleX": scale[0],
        "scaleY": scale[1],
        "scaleZ": scale[2],
    }


def card(guid: str, card_id: int, notes: str, **extra: Any) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": "Card",
        "Transform": transform(rot_z=180),
        "Nickname": notes.title(),
        "GMNotes": notes,
        "CardID": card_id,
        "CustomDeck": {"1": {"FaceURL": "face", "BackURL": "back", "NumWidth": 3, "NumHeight": 1}},
        **extra,
    }


def make_save(
    global_script: str = "", xml: str = "", objects: list[dict[str, Any]] | None = None, **top: Any
) -> dict[str, Any]:
    """A small save: a face-down deck of 3, an infinite token bag, a zone, a d6, a meeple."""
    cards = [card("c00001", 100, "ark"), card("c00002", 101, "dove"), card("c00003", 102, "raven")]
    deck = {
        "GUID": "deck01",
        "Name": "DeckCustom",
        "Transform": transform(0, 1, 0, rot_z=180),
        "Nickname": "Animals",
        "DeckIDs": [100, 101, 102],
        "CustomDeck": {"1": {"FaceURL": "face", "BackURL": "back", "NumWidth": 3, "NumHeight": 1}},
        "ContainedObjects": cards,
        "Tags": ["Animal"],
    }
    token = {
        "GUID": "tok001",
        "Name": "Custom_Token",
        "Transform": transform(),
        "Nickname": "Food",
        "GMNotes": "food",
        "Tags": ["Food"],
    }
    bag = {
        "GUID": "bag001",
        "Name": "Infinite_Bag",
        "Transform": transform(-5, 1, 0),
        "Nickname": "Food supply",
        "ContainedObjects": [token],
    }
    zone = {
        "GUID": "zone01",
        "Name": "ScriptingTrigger",
        "Nickname": "Ark",
        "Transform": transform(10, 1, 0, scale=(4, 4, 4)),
    }
    die = {
        "GUID": "die001",
        "Name": "Custom_Dice",
        "Transform": transform(-10, 1, 0),
        "RotationValues": [
            {"Value": str(i + 1), "Rotation": {"x": x, "y": y, "z": z}}
            for i, (x, y, z) in enumerate(D6_ROTATIONS)
        ],
    }
    meeple = {
        "GUID": "meep01",
        "Name": "Custom_Token",
        "Transform": transform(0, 1, 5),
        "Nickname": "Meeple",
        "Tags": ["Food"],
    }
    hands = [  # the seats: only colours with a HandTrigger can sit down
        {
            "GUID": f"hand{i:02d}",
            "Name": "HandTrigger",
            "FogColor": color,
            "Transform": transform(0, 4, z, scale=(10, 8, 4)),
        }
        for i, (color, z) in enumerate((("White", -30), ("Red", 30)))
    ]
    save = {
        "SaveName": "Test",
        "LuaScript": global_script,
        "LuaScriptState": "",
        "XmlUI": xml,
        "Note": "",
        "TabStates": {},
        "ObjectStates": [deck, bag, zone, die, meeple, *(objects or []), *hands],
    }
    save.update(top)
    return save


def loaded(script: str = "", xml: str = "", **kwargs: Any) -> EmulatedTable:
    objects = kwargs.pop("objects", None)
    top = kwargs.pop("top", {})
    table = EmulatedTable(make_save(script, xml, objects, **top), **kwargs)
    table.seat(["White", "Red"])
    table.load()
    return table


# ---------------------------------------------------------------------------- Wait
def test_wait_ordering_on_virtual_clock() -> None:
    t = loaded("""
        function onLoad()
          Wait.time(function() log('time0.5 ' .. os.clock()) end, 0.5)
          Wait.frames(function() log('frames10 ' .. os.clock()) end, 10)
          Wait.frames(function() log('frames40 ' .. os.clock()) end, 40)
          Wait.condition(function() log('cond ' .. os.clock()) end,
                         function() return os.clock() >= 0.25 end)
          Wait.time(function() log('rep ' .. os.clock()) end, 0.2, 3)
          local id = Wait.frames(function() log('stopped') end, 5)
          Wait.stop(id)
          Wait.condition(function() log('never') end, function() return false end, 1,
                         function() log('timeout ' .. os.clock()) end)
        end
    """)
    assert t.logs == [
        "frames10 0.16666666666667",
        "rep 0.2",
        "cond 0.25",
        "rep 0.4",
        "time0.5 0.5",
        "rep 0.6",
        "frames40 0.66666666666667",
        "timeout 1",
    ]
    assert t.time == 1.0


def test_advance_runs_endless_timer_and_settle_ignores_it() -> None:
    t = loaded("function onLoad() Wait.time(function() log('tick') end, 1, -1) end")
    assert t.logs == []
    t.advance(3.5)
    assert t.logs == ["tick"] * 3


def test_settle_raises_when_never_settling() -> None:
    t = EmulatedTable(
        make_save(
            "function onLoad() Wait.condition(function() end, function() return false end) end"
        )
    )
    with pytest.raises(EmulatorError, match="did not settle.*Wait.condition"):
        t.load()


# ---------------------------------------------------------------------------- containers
def test_take_object_from_deck() -> None:
    t = loaded("""
        function take()
          local deck = getObjectFromGUID('deck01')
          local card = deck.takeObject({position = {3, 1, 0}, callback_function = function(c)
            log('callback ' .. c.getGUID() .. ' at ' .. os.clock())
          end})
          log('took ' .. card.getGUID() .. ' ' .. card.getGMNotes() .. ' '
              .. tostring(card.is_face_down)
              .. ' left ' .. deck.getQuantity() .. ' clock ' .. os.clock())
          local flipped = deck:takeObject({position = {6, 1, 0}, flip = true, top = false})
          log('flipped ' .. flipped.getGUID() .. ' ' .. tostring(flipped.is_face_down))
          log('deck destroyed ' .. tostring(deck.isDestroyed())
              .. ' remainder ' .. deck.remainder.getGUID())
        end
    """)
    t.call_global("take")
    t.settle()
    assert t.logs == [
        "took c00001 ark true left 2 clock 0.016666666666667",  # the loaded table settled
        "flipped c00003 true",  # strict: still at the deck; it turns over on its way
        "deck destroyed true remainder c00002",
        "callback c00001 at 0.066666666666667",  # strict: when its 3 spawning frames end
    ]
    assert t.object("deck01") is None
    remainder = t.object("c00002")
    assert remainder is not None
    assert remainder["name"] == "Card" and remainder["face_down"] is True
    assert remainder["position"] == (0.0, 1.0, 0.0) and remainder["quantity"] == -1
    assert t.object("c00001")["position"] == (3.0, 1.0, 0.0)
    assert t.object("c00003")["face_down"] is False


def test_container_get_objects_and_take_by_guid() -> None:
    t = loaded("""
        function look()
          local deck = getObjectFromGUID('deck01')
          local out = {}
          for _, d in ipairs(deck.getObjects()) do
            out[#out + 1] = {d.index, d.guid, d.name, d.gm_notes}
          end
          deck.takeObject({guid = 'c00002', position = {0, 3, 0}})
          out[#out + 1] = deck.getQuantity()
          return out
        end
    """)
    assert t.call_global("look") == [
        [0, "c00001", "Ark", "ark"],
        [1, "c00002", "Dove", "dove"],
        [2, "c00003", "Raven", "raven"],
        2,
    ]
    assert [c["guid"] for c in t.object("deck01")["contained"]] == ["c00001", "c00003"]


def test_infinite_bag_clones_get_fresh_unique_guids() -> None:
    t = loaded("""
        guids = {}
        function spawnFood()
          local bag = getObjectFromGUID('bag001')
          for i = 1, 5 do  -- strict: a copy's GUID is valid once it has spawned
            bag.takeObject({position = {i, 1, 5},
                            callback_function = function(o) guids[i] = o.getGUID() end})
          end
          return {left = bag.getQuantity()}
        end
        function spawned() return guids end
    """)
    result = t.call_global("spawnFood")
    t.settle()
    guids = t.call_global("spawned")
    assert len(set(guids)) == 5
    assert "tok001" not in guids
    assert all(len(g) == 6 and int(g, 16) >= 0 for g in guids)
    assert result["left"] == 1
    t.settle()
    clones = [o for o in t.objects() if o["guid"] in guids]
    assert [o["gm_notes"] for o in clones] == ["food"] * 5
    assert [o["position"][0] for o in clones] == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_put_object_and_group() -> None:
    loose = [
        card("d00001", 100, "lion", Transform=transform(20, 1, 0)),
        card("d00002", 101, "tiger", Transform=transform(23, 1, 0)),
        card("d00003", 102, "bear", Transform=transform(26, 1, 0)),
    ]
    bag = {"GUID": "sack01", "Name": "Bag", "Transform": transform(30, 1, 0)}
    t = loaded(
        """
        function merge()
          local a, b = getObjectFromGUID('d00001'), getObjectFromGUID('d00002')
          local deck = a.putObject(b)
          local grouped = group({deck, getObjectFromGUID('d00003')})
          local out = {type = grouped[1].type, n = grouped[1].getQuantity(), order = {},
                       a_gone = a.isDestroyed()}
          for _, d in ipairs(grouped[1].getObjects()) do out.order[#out.order + 1] = d.gm_notes end
          local sack = getObjectFromGUID('sack01')
          sack.putObject(getObjectFromGUID('die001'))
          out.sack = sack.getQuantity()
          return out
        end
        function onObjectEnterContainer(container, obj)
          log('enter ' .. container.type .. ' ' .. obj.guid)
        end
    """,
        objects=[*loose, bag],
    )
    result = t.call_global("merge")
    assert result == {
        "type": "Deck",
        "n": 3,
        "order": ["bear", "tiger", "lion"],
        "a_gone": True,
        "sack": 1,
    }
    assert t.object("d00001") is None and t.object("die001") is None
    decks = [o for o in t.objects() if o["type"] == "Deck" and o["guid"] != "deck01"]
    assert len(decks) == 1 and decks[0]["position"] == (20.0, 1.0, 0.0)
    assert t.logs[-1] == "enter Bag die001"
    saved = next(o for o in t.save_state()["ObjectStates"] if o["GUID"] == decks[0]["guid"])
    assert saved["DeckIDs"] == [102, 101, 100]
    assert set(saved["CustomDeck"]) == {"1"}


def test_shuffle_uses_callable_and_records() -> None:
    t = loaded(
        "function mix() getObjectFromGUID('deck01').shuffle() end",
        shuffle=lambda guids: list(reversed(guids)),
    )
    t.call_global("mix")
    assert t.shuffles == [
        {
            "guid": "deck01",
            "before": ["c00001", "c00002", "c00003"],
            "after": ["c00003", "c00002", "c00001"],
        }
    ]
    assert [c["guid"] for c in t.object("deck01")["contained"]] == ["c00003", "c00002", "c00001"]
    assert t.save_state()["ObjectStates"][0]["DeckIDs"] == [102, 101, 100]


def test_seeded_shuffle_is_deterministic() -> None:
    orders = []
    for _ in range(2):
        t = loaded("function mix() getObjectFromGUID('deck01').shuffle() end", seed=3)
        t.call_global("mix")
        orders.append(t.shuffles[0]["after"])
    assert orders[0] == orders[1]
    assert sorted(orders[0]) == ["c00001", "c00002", "c00003"]


# ---------------------------------------------------------------------------- zones
ZONE_SCRIPT = """
    function onObjectEnterZone(zone, obj) log('enter ' .. zone.guid .. ' ' .. obj.getGUID()) end
    function onObjectLeaveZone(zone, obj) log('leave ' .. zone.guid .. ' ' .. obj.getGUID()) end
    function inZone(ignore)
      local out = {}
      for _, o in ipairs(getObjectFromGUID('zone01').getObjects(ignore)) do
        out[#out + 1] = o.guid
      end
      return out
    end
"""


def test_zone_get_objects_and_events() -> None:
    t = loaded(
        ZONE_SCRIPT
        + """
        function moveDie() getObjectFromGUID('die001').setPosition({11.5, 3, -1.5}) end
    """
    )
    assert t.call_global("inZone") == []
    t.drop("White", "meep01", (9, 1, 1))
    assert t.logs == ["enter zone01 meep01"]
    t.call_global("moveDie")
    assert t.logs == ["enter zone01 meep01"]  # events come with the next frame
    t.settle()
    assert t.logs[-1] == "enter zone01 die001"
    assert sorted(t.call_global("inZone")) == ["die001", "meep01"]  # strict: in any order
    t.drop("Red", "meep01", (0, 1, 0))
    assert t.logs[-1] == "leave zone01 meep01"
    assert t.call_global("inZone") == ["die001"]


def test_zone_tag_rule() -> None:
    tagged_zone = {
        "GUID": "zone02",
        "Name": "ScriptingTrigger",
        "Tags": ["Food"],
        "Transform": transform(40, 1, 0, scale=(4, 1, 4)),
    }
    t = loaded(
        ZONE_SCRIPT
        + """
        function tagged(ignore)
          local out = {}
          for _, o in ipairs(getObjectFromGUID('zone02').getObjects(ignore)) do
            out[#out + 1] = o.guid
          end
          return out
        end
    """,
        objects=[tagged_zone],
    )
    t.drop("White", "meep01", (40, 1, 1))
    t.drop("White", "die001", (41, 1, -1))
    assert t.call_global("tagged") == ["meep01"]
    assert sorted(t.call_global("tagged", True)) == ["die001", "meep01"]
    assert t.logs == ["enter zone02 meep01"]


def test_drop_fires_global_and_object_events() -> None:
    token = {
        "GUID": "tok777",
        "Name": "Custom_Token",
        "Transform": transform(5, 1, 5),
        "LuaScript": "function onDrop(color) log('self dropped by ' .. color) end",
    }
    t = loaded(
        "function onObjectDrop(color, obj) log(color .. ' dropped ' .. obj.guid) end",
        objects=[token],
    )
    t.drop("Red", "tok777")
    assert t.logs == ["Red dropped tok777", "self dropped by Red"]


# ---------------------------------------------------------------------------- dice
DICE_SCRIPT = """
    function rollIt()
      local die = getObjectFromGUID('die001')
      die.randomize('White')
      log('resting ' .. tostring(die.resting))
      Wait.condition(function() log('value ' .. die.getValue() .. ' at ' .. os.clock()) end,
                     function() return die.resting end)
    end
    function onObjectRandomize(obj, color) log('randomized ' .. obj.guid .. ' by ' .. color) end
"""


def test_dice_roll_from_queue_after_resting() -> None:
    t = loaded(DICE_SCRIPT, dice=[5, "3"])
    t.call_global("rollIt")
    t.settle()
    t.call_global("rollIt")
    t.settle()
    assert t.logs == [
        "randomized die001 by White",
        "resting false",
        "value 5 at 0.51666666666667",  # strict: the loaded table settles one frame first
        "randomized die001 by White",
        "resting false",
        "value 3 at 1.0333333333333",  # and the die comes to rest one frame after landing
    ]
    assert t.object("die001")["value"] == "3"
    assert t.dice_left == 0


def test_dice_queue_empty_raises() -> None:
    t = loaded(DICE_SCRIPT)
    t.call_global("rollIt")
    with pytest.raises(EmulatorError, match="dice queue is empty"):
        t.settle()


def test_rotation_value_follows_rotation() -> None:
    t = loaded("""
        function faces()
          local die = getObjectFromGUID('die001')
          local out = {}
          local rotations = {{-90, 0, 0}, {0, 0, 0}, {0, 45, -90}, {0, 0, 90}, {0, 0, 180},
                             {90, 0, 0}}
          for i, r in ipairs(rotations) do
            die.setRotation(r)
            out[i] = die.getRotationValue()
          end
          die.setRotationValue('6')
          out[#out + 1] = die.resting
          return out
        end
        function after() return getObjectFromGUID('die001').getValue() end
    """)
    assert t.call_global("faces") == ["1", "2", "3", "4", "5", "6", False]
    t.settle()
    assert t.call_global("after") == "6"


def test_translate_and_rotate_add_to_position_and_rotation() -> None:
    t = loaded("""
        function shifted()
          local die = getObjectFromGUID('die001')
          die.setPosition({1, 2, 3})
          die.setRotation({0, 10, 0})
          die.translate({0.5, 1, -4})
          die.rotate({90, 20, 0})
          local p, r = die.getPosition(), die.getRotation()
          return {p.x, p.y, p.z, r.x, r.y, r.z}
        end
    """)
    assert t.call_global("shifted") == [1.5, 3, -1, 90, 30, 0]


# ---------------------------------------------------------------------------- UI
XML = """<!-- UI -->
<Panel id="panel">
  <Button id="go" onClick="clicked">Go</Button>
  <Text id="result">none</Text>
  <Button id="secret" active="false" onClick="clicked">Hidden</Button>
  <Button id="redOnly" visibility="Red" onClick="clicked">Red</Button>
</Panel>
"""
UI_SCRIPT = """
    function clicked(player, value, id)
      UI.setValue('result', player.color .. '/' .. player.steam_name .. '/'
                  .. tostring(player.seated)
                  .. '/' .. value .. '/' .. id)
      UI.setAttribute('go', 'color', 'Red')
      UI.hide('go')
      log('was ' .. UI.getValue('result'))
    end
"""


def test_ui_click_dispatch_and_values() -> None:
    t = loaded(UI_SCRIPT, XML)
    assert t.ui_value("result") == "none"
    assert t.ui_active("go") and not t.ui_active("secret")
    t.click_ui("Red", "go")
    assert t.ui_value("result") == "Red/Red/true/-1/go"
    assert t.logs == ["was Red/Red/true/-1/go"]
    assert t.ui_attribute("go", "color") == "Red"
    assert t.ui_active("go") is False
    with pytest.raises(ValueError, match="not active"):
        t.click_ui("Red", "go")
    with pytest.raises(ValueError, match="not visible to White"):
        t.click_ui("White", "redOnly")
    t.click_ui("Red", "redOnly", "-2")
    assert t.ui_value("result") == "Red/Red/true/-2/redOnly"
    with pytest.raises(ValueError, match="no XmlUI element"):
        t.click_ui("Red", "nope")


def test_object_xml_ui_and_cross_script_handler() -> None:
    board = {
        "GUID": "board1",
        "Name": "Custom_Board",
        "Transform": transform(0, 1, 20),
        "XmlUI": '<Button id="boardBtn" onClick="pressed">Press</Button>',
        "LuaScript": "function pressed(player, value, id)\n"
        "  self.UI.setAttribute('boardBtn', 'text', 'pressed by ' .. player.color)\n"
        "  Global.call('note', {who = player.color})\nend",
    }
    t = loaded("function note(p) log('noted ' .. p.who) end", objects=[board])
    t.click_ui("White", "boardBtn")
    assert t.ui_attribute("boardBtn", "text") == "pressed by White"
    assert t.logs == ["noted White"]


# ---------------------------------------------------------------------------- buttons
def test_click_button_by_label_and_index() -> None:
    deck_script = """
        function onLoad()
          self.createButton({click_function = 'draw', function_owner = self, label = 'Draw'})
          self.createButton({click_function = 'count', label = 'Count'})
        end
        function draw(obj, color, alt)
          log('draw by ' .. color .. ' alt ' .. tostring(alt) .. ' on ' .. obj.guid)
          obj.editButton({index = 0, label = 'Drawn'})
        end
    """
    holder = {
        "GUID": "hold01",
        "Name": "Custom_Token",
        "Transform": transform(0, 1, -10),
        "LuaScript": deck_script,
    }
    t = loaded("function count(obj, color) log('count ' .. color) end", objects=[holder])
    t.click_button("hold01", "Draw", "Red")
    t.click_button("hold01", 1, "White", alt=True)
    assert t.logs == ["draw by Red alt false on hold01", "count White"]
    assert [b["label"] for b in t.buttons("hold01")] == ["Drawn", "Count"]
    with pytest.raises(ValueError, match="no button"):
        t.click_button("hold01", "Draw", "Red")


# ---------------------------------------------------------------------------- messages, notes, JSON
def test_broadcasts_prints_and_players() -> None:
    t = loaded("""
        function onLoad()
          broadcastToAll('all', {1, 0, 0})
          broadcastToColor('just red', 'Red', Color.Blue)
          printToAll('printed')
          printToColor('tinted', 'White', 'Green')
          Player.White.broadcast('hi white')
          print('seated', table.concat(getSeatedPlayers(), ','), #Player.getPlayers(),
                Player.Blue.seated)
        end
    """)
    assert [(b["kind"], b["message"], b["to"]) for b in t.broadcasts] == [
        ("broadcast", "all", None),
        ("broadcast", "just red", "Red"),
        ("print", "printed", None),
        ("print", "tinted", "White"),
        ("broadcast", "hi white", "White"),
    ]
    assert t.broadcasts[0]["color"] == (1.0, 0.0, 0.0)
    assert t.broadcasts[1]["color"] == pytest.approx((0.118, 0.53, 1.0))
    assert t.broadcasts[2]["color"] is None
    assert t.prints == ["seated\tWhite,Red\t2\tfalse"]


def test_global_and_player_methods_work_called_with_a_dot_or_a_colon() -> None:
    t = loaded("""
        function onLoad()
          Player.White.broadcast('dot')
          Player.White:broadcast('colon')
          Player['Red']:print('colon red')
          print(#Global.getSnapPoints(), #Global:getSnapPoints(),
                Player.White.getHandCount(), Player.White:getHandCount())
        end
    """)
    assert [(b["message"], b["to"]) for b in t.broadcasts] == [
        ("dot", "White"),
        ("colon", "White"),
        ("colon red", "Red"),
    ]
    assert t.prints == ["0\t0\t1\t1"]


def test_notes_are_zero_based() -> None:
    t = loaded("""
        function onLoad()
          local a = Notes.addNotebookTab({title = 'Rules', body = 'Be kind'})
          local b = Notes.addNotebookTab({title = 'Score', body = '0', color = 'Red'})
          Notes.editNotebookTab({index = b, body = '12'})
          Notes.removeNotebookTab(a)
          Notes.setNotes('Round 2')
          local tabs = Notes.getNotebookTabs()
          log(a .. ' ' .. b .. ' ' .. tabs[1].index .. ' ' .. tabs[1].title .. ' '
              .. Notes.getNotes())
        end
    """)
    assert t.logs == ["0 1 0 Score Round 2"]
    assert t.notebook == [{"title": "Score", "body": "12", "color": "Red"}]
    assert t.notes == "Round 2"


def test_json_semantics() -> None:
    t = loaded("""
        function enc()
          return {JSON.encode({}), JSON.encode({b = 1, a = {3, 2}}),
                  JSON.encode({[1] = 'x', [3] = 'z'}),
                  JSON.encode({[1] = 'x', y = true}), JSON.encode({[5] = 1, [-1] = 2}),
                  JSON.encode(2.5), JSON.encode('q"\\n')}
        end
        function dec() local t = JSON.decode('{"a": [1, 2, {"b": null}], "1": "one"}')
          return {t.a[2], t['1'], t[1] == nil, #t.a} end
        function bad() return JSON.encode({obj = self}) end
    """)
    assert t.call_global("enc") == [
        "[]",
        '{"a":[3,2],"b":1}',
        '["x",null,"z"]',
        '{"1":"x","y":true}',
        '{"-1":2,"5":1}',
        "2.5",
        '"q\\"\\n"',
    ]
    assert t.call_global("dec") == [2, "one", True, 3]
    with pytest.raises(LuaScriptError, match="Object reference"):
        t.call_global("bad")


# ---------------------------------------------------------------------------- save state
SAVE_SCRIPT = """
    state = {rounds = 0}
    function onLoad(saved)
      if saved ~= '' then state = JSON.decode(saved) end
      log('loaded with ' .. (saved == '' and 'nothing' or saved))
    end
    function onSave() return JSON.encode(state) end
    function bump() state.rounds = state.rounds + 1; return state.rounds end
"""


def test_on_save_on_load_round_trip() -> None:
    counter = {
        "GUID": "cnt001",
        "Name": "Custom_Token",
        "Transform": transform(0, 1, 8),
        "LuaScript": "n = 0\nfunction onLoad(s) n = tonumber(s) or 0 end\n"
        "function onSave() return tostring(n) end\nfunction inc() n = n + 1 end",
    }
    t = loaded(SAVE_SCRIPT, objects=[counter])
    assert t.logs == ["loaded with nothing"]
    t.call_global("bump")
    t.call_global("bump")
    t.call_object("cnt001", "inc")
    t.drop("White", "meep01", (1, 2, 3))
    saved = t.save_state()
    assert saved["LuaScriptState"] == '{"rounds":2}'
    by_guid = {o["GUID"]: o for o in saved["ObjectStates"]}
    assert by_guid["cnt001"]["LuaScriptState"] == "1"
    assert by_guid["meep01"]["Transform"]["posX"] == 1
    again = EmulatedTable(copy.deepcopy(saved))
    again.load()
    assert again.logs == ['loaded with {"rounds":2}']
    assert again.call_global("bump") == 3
    assert again.call_object("cnt001", "onSave") == "1"


# ---------------------------------------------------------------------------- errors
BROKEN = """
    function onLoad() Wait.frames(function() local x = nil; return x.y end, 2) end
    function onObjectDrop(color, obj) error('drop failed for ' .. color) end
"""


def test_handler_errors_raise_when_strict() -> None:
    t = EmulatedTable(make_save(BROKEN))
    with pytest.raises(
        LuaScriptError, match=r"Global Wait.frames: Global:2: attempt to index local 'x'"
    ):
        t.load()


def test_handler_errors_are_recorded_when_not_strict() -> None:
    t = EmulatedTable(make_save(BROKEN), raise_errors=False)
    t.load()
    t.drop("Blue", "meep01")
    assert len(t.errors) == 2
    assert "attempt to index local 'x'" in t.errors[0]
    assert t.errors[1] == "Global.onObjectDrop: Global:3: drop failed for Blue"


def test_call_global_error_is_raised_directly() -> None:
    t = loaded("function f() return unpack({1}) end", raise_errors=False)
    with pytest.raises(LuaScriptError, match=r"Global:1: .*'unpack'.*table\.unpack"):
        t.call_global("f")
    assert t.errors == []


# ---------------------------------------------------------------------------- misc API
def test_objects_tags_vectors_and_turns() -> None:
    t = loaded("""
        function probe()
          local deck = getObjectFromGUID('deck01')
          local v = Vector(1, 2, 3)
          local w = Vector({x = 1, y = 1, z = 1})
          v:add(w):scale(2)
          deck.addTag('Shuffled')
          return {
            v = {v.x, v[2], v.z}, copy = v:copy():sub({4, 6, 8}):magnitude(),
            pos = deck.getPosition().x, face_down = deck.is_face_down, type = deck.type,
            tags = deck.getTags(), has = deck.hasTag('animal'),
            with_tag = #getObjectsWithTag('Food'), any = #getObjectsWithAnyTags({'Animal', 'Food'}),
            all = #getObjectsWithAllTags({'Animal', 'Shuffled'}), n = #getObjects(),
            quantity = getObjectFromGUID('die001').getQuantity(),
            colors = #Player.getColors(), turns = Turns.enable,
          }
        end
        function onPlayerTurn(player, previous)
          log('turn ' .. player.color .. ' after ' .. (previous and previous.color or 'nobody'))
        end
        function startTurns() Turns.enable = true; Turns.endTurn() end
    """)
    result = t.call_global("probe")
    assert result == {
        "v": [4, 6, 8],
        "copy": 0,
        "pos": 0,
        "face_down": True,
        "type": "Deck",
        "tags": ["Animal", "Shuffled"],
        "has": True,
        "with_tag": 1,
        "any": 2,
        "all": 1,
        "n": 7,  # the two HandTriggers (seats) count
        "quantity": -1,
        "colors": 12,
        "turns": False,
    }
    t.call_global("startTurns")
    t.settle()
    assert t.logs == ["turn White after nobody", "turn Red after White"]


def test_spawn_object_data_and_destroy_events() -> None:
    t = loaded("""
        function onObjectSpawn(obj) log('spawned ' .. obj.getName()) end
        function onObjectDestroy(obj) log('destroyed ' .. obj.guid) end
        function make()
          local o = spawnObjectData({data = {Name = 'Custom_Token', Nickname = 'Sheep'},
            position = {1, 2, 3},
            callback_function = function(obj)
              log('ready ' .. obj.getName())
              made = obj.getGUID() -- strict: the fresh GUID is valid once spawning ends
            end})
          getObjectFromGUID('die001').destruct()
          return tostring(o.spawning)
        end
        function guid() return made end
    """)
    assert t.call_global("make") == "true"
    t.settle()
    guid = t.call_global("guid")
    assert t.logs == ["destroyed die001", "spawned Sheep", "ready Sheep"]
    assert t.object(guid)["position"] == (1.0, 2.0, 3.0)
    assert t.object("die001") is None


def test_scripted_object_from_bag_and_cross_script_calls() -> None:
    scripted = {
        "GUID": "ark777",
        "Name": "Custom_Token",
        "LuaScriptState": "7",
        "LuaScript": "count = 0\nfunction onLoad(s) count = tonumber(s) end\n"
        "function add(p) count = count + p.n; p.n = 0; return {count = count} end",
    }
    bag = {
        "GUID": "sack02",
        "Name": "Bag",
        "Transform": transform(30, 1, 0),
        "ContainedObjects": [scripted],
    }
    hand = {
        "GUID": "hand01",
        "Name": "HandTrigger",
        "FogColor": "Red",
        "Transform": transform(0, 5, -20, scale=(10, 5, 4)),
    }
    t = loaded(
        """
        shared = {list = {1, 2}}
        function go()
          local token = getObjectFromGUID('sack02').takeObject({position = {0, 2, -20}})
          local params = {n = 5}
          local result = token.call('add', params)
          token.setVar('count', token.getVar('count') * 10)
          local copied = Global.getTable('shared')
          copied.list[1] = 99
          local hand = {}
          for _, o in ipairs(Player.Red.getHandObjects()) do hand[#hand + 1] = o.guid end
          return {result = result.count, params = params.n, count = token.getVar('count'),
                  shared = shared.list[1], hand = hand, white = #Player.White.getHandObjects()}
        end
        function inHand()
          local hand = {}
          for _, o in ipairs(Player.Red.getHandObjects()) do hand[#hand + 1] = o.guid end
          return hand
        end
        """,
        objects=[bag, hand],
    )
    assert t.call_global("go") == {
        "result": 12,
        "params": 5,
        "count": 120,
        "shared": 1,
        "hand": [],  # strict: the token is still on its way from the bag
        "white": 0,
    }
    t.settle()
    assert t.call_global("inHand") == ["ark777"]


def test_ui_xml_and_attribute_tables() -> None:
    t = loaded(
        """
        function rebuild()
          UI.setAttributes('go', {color = 'Blue', fontSize = 20})
          local attrs = UI.getAttributes('go')
          UI.setXml('<Text id="fresh" active="false">new</Text>')
          UI.show('fresh')
          return {attrs.color, attrs.fontSize, UI.getXml(), tostring(UI.getAttribute('go', 'x'))}
        end
        """,
        XML,
    )
    assert t.call_global("rebuild") == [
        "Blue",
        "20",
        '<Text id="fresh" active="True">new</Text>',
        "nil",
    ]
    assert t.ui_value("fresh") == "new" and t.ui_active("fresh")
    assert t.ui_value("go") is None
    assert t.save_state()["XmlUI"] == '<Text id="fresh" active="True">new</Text>'


def test_turn_events_only_when_enabled_and_pretty_json() -> None:
    t = loaded(
        """
        function onPlayerTurn(player) log('turn ' .. player.color) end
        function quiet() Turns.turn_color = 'Red'; Turns.endTurn(); return Turns.turn_color end
        function pretty() return JSON.encode_pretty({b = {1}, a = 'x'}) end
        """
    )
    assert t.call_global("quiet") == "Red"
    t.settle()
    assert t.logs == []
    assert t.call_global("pretty") == '{\n  "a": "x",\n  "b": [\n    1\n  ]\n}'


def test_simultaneous_dice_take_values_in_roll_order() -> None:
    second = {"GUID": "die002", "Name": "Die_6", "Transform": transform(-12, 1, 0)}
    t = loaded(
        """
        function rollBoth()
          getObjectFromGUID('die002').roll()
          getObjectFromGUID('die001').roll()
        end
        """,
        objects=[second],
        dice=[6, 1],
    )
    t.call_global("rollBoth")
    t.settle()
    assert t.object("die002")["value"] == 6
    assert t.object("die001")["value"] == "1"


def test_global_snap_points_load_from_the_save_and_are_saved_back() -> None:
    """Global.getSnapPoints starts from the save's SnapPoints; setSnapPoints lands in the save."""
    script = """
    function onLoad()
      local first = Global.getSnapPoints()[1]
      seen = {n = #Global.getSnapPoints(), x = first.position.x, tag = first.tags[1]}
      function get_seen() return seen end
      Global.setSnapPoints({{position = {1, 2, 3}, rotation = {0, 180, 0}, rotation_snap = true},
                            {position = {x = 4, y = 5, z = 6}, tags = {"Divider"}}})
    end
    """
    snaps = [
        {"Position": {"x": 7.5, "y": 0.96, "z": 0}, "Tags": ["Slot"]},
        {"Position": {"x": 0, "y": 0.96, "z": 1}, "Rotation": {"x": 0, "y": 90, "z": 0}},
    ]
    table = loaded(script, top={"SnapPoints": snaps})
    assert table.call_global("get_seen") == {"n": 2, "x": 7.5, "tag": "Slot"}
    assert table.save_state()["SnapPoints"] == [
        {"Position": {"x": 1, "y": 2, "z": 3}, "Rotation": {"x": 0, "y": 180, "z": 0},
         "RotationSnap": True},
        {"Position": {"x": 4, "y": 5, "z": 6}, "Tags": ["Divider"]},
    ]  # fmt: skip
