"""The transactions of a GnuCash book, read with GnuCash's own engine (python3-gnucash).

    python3 gnucash_book.py BOOK

prints one JSON list: each transaction with its description and its splits (the account's GUID
and the value as GnuCash keeps it, num/denom), splits by account, transactions by description.
The book is opened read-only, so a GnuCash that still holds it open keeps its lock.
"""
import json
import sys

from gnucash import Session, SessionOpenMode


def transactions(book):
    found = {}
    pending = [book.get_root_account()]
    while pending:
        account = pending.pop()
        pending.extend(account.get_children())
        for split in account.GetSplitList():
            transaction = split.parent
            guid = transaction.GetGUID().to_string()
            if guid in found:
                continue
            splits = []
            for s in transaction.GetSplitList():
                value = s.GetValue()
                splits.append({
                    "account": s.GetAccount().GetGUID().to_string(),
                    "value": "%d/%d" % (value.num(), value.denom()),
                })
            splits.sort(key=lambda s: s["account"])
            found[guid] = {"description": transaction.GetDescription(), "splits": splits}
    return sorted(found.values(), key=lambda t: t["description"])


def main():
    session = Session("xml://" + sys.argv[1], SessionOpenMode.SESSION_READ_ONLY)
    try:
        print(json.dumps(transactions(session.book)))
    finally:
        session.end()


if __name__ == "__main__":
    main()
