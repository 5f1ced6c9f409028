from game.ten.simulate import main

main()
