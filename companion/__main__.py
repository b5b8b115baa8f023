from companion.cli import main

raise SystemExit(main())
