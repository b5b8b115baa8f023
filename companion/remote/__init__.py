"""Remote play: one game played by two companions in different places, over a broker both
reach (docs/remote-play.md).

    referee = Referee.start(store, "memwars", setup, deck)                # the host
    invitation = invitation_for(referee, host_sides={0}, guest_sides={1})
    link = RemoteLink(referee, url=url, match="ada-basil", role="host",
                      sides=invitation.host_sides, invitation=invitation)

    invitation = fetch_invitation(url, RemoteTopics(REMOTE_PREFIX, "ada-basil"), 10)
    referee = join(store, invitation)                                     # the guest
    link = RemoteLink(referee, url=url, match="ada-basil", role="guest",
                      sides=invitation.guest_sides)

    link.pump(0.1)          # on the referee's thread: takes in what the other companion sent
    link.submit(action)     # a decision of a side this companion plays

Nothing here names a game: each companion's own engine checks every action, and both
stores' hash chains are compared action by action.
"""
