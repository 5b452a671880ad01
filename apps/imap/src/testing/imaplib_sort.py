"""Sorts and threads a mailbox with Python's imaplib, as a Python mail client would: expunges its first message (so
sequence numbers are not UIDs), then SORT by each key, REVERSE, several keys, with a search key, UID SORT, THREAD
by both algorithms, UID THREAD and SEARCH SENT*. Prints what it got, as JSON."""
import imaplib
import json
import sys

port, user, password, mailbox = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
result = {}
imap = imaplib.IMAP4("127.0.0.1", port)
imap.login(user, password)
imap.select(mailbox)
imap.store("1", "+FLAGS", "(\\Deleted)")
imap.expunge()


def answer(response):
    typ, data = response
    assert typ == "OK", (typ, data)
    return data[0].decode()


for key in ["ARRIVAL", "DATE", "REVERSE DATE", "SIZE", "SUBJECT", "FROM", "TO", "CC", "DISPLAYFROM", "DISPLAYTO", "TO REVERSE SIZE"]:
    result[key] = answer(imap.sort(key, "UTF-8", "ALL"))
result["size sent since"] = answer(imap.sort("(SIZE)", "US-ASCII", "SENTSINCE", "2-Mar-2026"))
result["uid reverse arrival"] = answer(imap.uid("SORT", "(REVERSE ARRIVAL)", "UTF-8", "ALL"))
result["orderedsubject"] = answer(imap.thread("ORDEREDSUBJECT", "UTF-8", "ALL"))
result["references"] = answer(imap.thread("REFERENCES", "UTF-8", "ALL"))
result["uid references"] = answer(imap.uid("THREAD", "REFERENCES", "UTF-8", "ALL"))
result["sentsince"] = answer(imap.search(None, "SENTSINCE", "2-Mar-2026"))
result["sentbefore"] = answer(imap.search(None, "SENTBEFORE", "1-Mar-2026"))
result["senton"] = answer(imap.search(None, "SENTON", "1-Mar-2026"))
imap.logout()
print(json.dumps(result))
